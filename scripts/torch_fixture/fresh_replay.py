#!/usr/bin/env python3
"""Judges the library model on what fresh.py recorded on a GPU, on this machine's CPU.

    python3 fresh_replay.py configs DIR [--write-batched FILE]   # DIR: fresh.py configs' output
    python3 fresh_replay.py replay DIR [--jobs N] [--emulate-up-to MACS] [--out FILE] [--calls CAPTURE]   # fresh.py calls'
    python3 fresh_replay.py inplace DIR                           # fresh.py inplace's
    python3 fresh_replay.py batched-rows DIR --out CSV            # fresh.py configs' output

configs: for each call, the configuration cuBLAS(Lt) logged against the resolver's answer for it, compared
by the arithmetic the library model computes for each (ref::describe_plan: equal lines, equal bits), and
whether torch took the path the API predicts (cuBLASLt's bias epilogue or a plain GEMM). Per operand
type, among the calls whose rule answer the model computes (a declined answer is refused anyway), the
measured agreement of the rules for batched and bias calls, written as the resolver's call-kinds.json
with --write-kinds (harness/api/call_kinds.hpp).

replay: every call's operands regenerated from its seed (their SHA-256 checked), computed by mmaemu as a
user computes it: through mmaemu.torch.emulate(strict=True) on CPU tensors for calls up to
--emulate-up-to multiply-adds, otherwise through mmaemu.torch_gemm(rows=...) for the sampled rows with
the same certainty gate; with --calls, a capture of the calls (capture_from_log.py) gives each its
configuration (mmaemu.torch.emulate(calls=...)). Each call is exact (every sampled row's bits equal torch's on the GPU), wrong,
or refused with its reason. Prints the table per op x type; --out writes every call's verdict (JSON).

batched-rows: the strided batched calls among DIR's (configs.json and lt-log.txt, either xz-compressed) as
heuristic.csv rows (the library's view of each call, the configuration cuBLAS logged for it), in a group
ending "held-out": what the batched resolver is checked on (scripts/cublaslt_resolver_fit.py), never fitted.

inplace: addmm's in-place epilogue on algorithm 66 (16-bit, no split-K) for each (alpha, beta): which
of the model's epilogue and round(round(alpha * acc) + beta * C) each call follows.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from assemble import config_of  # noqa: E402
from mmaemu._cublaslt_log import matmul_line  # noqa: E402,F401 (capture_from_log.py imports it from here)

import mmaemu  # noqa: E402
from mmaemu import _mmaemu  # noqa: E402

D_TYPE = {"bf16": "bf16", "fp16": "fp16", "fp32": "fp32", "tf32": "fp32", "e4m3": "bf16"}
BATCHED = ("bmm", "baddbmm", "matmul3d", "matmul4d")


def call_options(op, t, bias=False, transposed=False, batch=1, alpha=1.0, beta=None):
    """The API's description of a torch op as fresh.py ran it (the library's view follows from it)."""
    torch_op = {"matmul": "matmul", "addmm": "addmm", "addmm_bias": "addmm", "linear": "linear",
                "linear_bias": "linear", "bmm": "matmul", "baddbmm": "addmm", "matmul3d": "matmul",
                "matmul4d": "matmul", "scaled_mm": "scaled_mm"}[op]
    if beta is None:
        beta = 1.0 if op in ("addmm", "addmm_bias", "linear_bias", "baddbmm") else 0.0
    call = mmaemu._call("cublaslt-h200", t, t, D_TYPE[t], alpha, beta, None, None, False, "TN", None, torch_op, None,
                        bias=bias, mat2_transposed=transposed)
    call.batch = batch
    return call


def compare_config(op, t, m, n, k, bt, line, alpha=1.0, beta=None):
    """(logged arithmetic, rule's arithmetic, resolution dict, path agreement or None)."""
    bias = op in ("addmm_bias", "linear_bias")
    transposed = op in ("addmm_bias", "matmul4d")
    call = call_options(op, t, bias=bias, transposed=transposed, batch=bt if op in BATCHED else 1, alpha=alpha, beta=beta)
    try:
        res = json.loads(_mmaemu.resolve(call, m, n, k))
    except mmaemu.InputError as e:  # a call the API refuses before resolving (a path not recorded)
        return None, {"refused": str(e)}, None, None
    cfg = config_of(line)
    logged = json.loads(_mmaemu.arithmetic(call, m, n, k, json.dumps(cfg)))
    path = None
    if bias:
        predicted = res.get("call", {}).get("epilogue") == "bias"
        path = predicted == ("EPILOGUE_BIAS" in line)
    return logged, res, cfg, path


def from_explore(d):
    """explore.py's calls (reports/h100/torch-uncovered) as configs entries: the batched and bias ones."""
    out = []
    for c in d["calls"]:
        name, dims = c["name"].split("-", 1)
        v = [int(x) for x in dims.split("x")] if name not in ("addmm_k0",) else []
        e = {"id": c["id"], "type": c["type"], "log": c.get("log"), "alpha": 1.0, "beta": None}
        if "refused" in c:
            e["refused"] = c["refused"]
        if name in ("bmm", "bmm_t", "baddbmm", "matmul_bcast_b"):
            bt, m, n, k = v if name != "matmul_bcast_b" else v
            e.update(op={"bmm": "bmm", "bmm_t": "matmul4d", "baddbmm": "baddbmm", "matmul_bcast_b": "bmm"}[name],
                     m=m, n=n, k=k, batch=bt)
            if name == "baddbmm":
                e.update(alpha=0.125, beta=0.5)
        elif name in ("matmul4d", "matmul4d_t"):
            b0, h, m, n, k = v
            e.update(op="bmm" if name == "matmul4d" else "matmul4d", m=m, n=n, k=k, batch=b0 * h)
        elif name in ("addmm_bias", "linear_bias", "linear_bias_relu"):
            m, n, k = v
            e.update(op="addmm_bias" if name == "addmm_bias" else "linear_bias", m=m, n=n, k=k, batch=1)
        elif name == "linear3d_bias":
            b0, m, n, k = v
            e.update(op="linear_bias", m=b0 * m, n=n, k=k, batch=1)
        else:
            continue
        out.append(e)
    return out


def configs(args):
    if os.path.exists(os.path.join(args.dir, "configs.json")):
        d = json.load(open(os.path.join(args.dir, "configs.json")))
    else:
        d = {"calls": from_explore(json.load(open(os.path.join(args.dir, "explore.json"))))}
    lt = open(os.path.join(args.dir, "lt-log.txt"), "rb").read()
    rows = collections.defaultdict(collections.Counter)
    kinds = {"batched": collections.defaultdict(collections.Counter), "bias": collections.defaultdict(collections.Counter)}
    for c in d["calls"]:
        key = (c["op"], c["type"])
        if "refused" in c:
            rows[key]["torch refused"] += 1
            continue
        line = matmul_line(lt[c["log"][0]:c["log"][1]].decode(errors="replace"))
        if line is None:
            rows[key]["no log line"] += 1
            continue
        logged, res, cfg, path = compare_config(c["op"], c["type"], c["m"], c["n"], c["k"], c["batch"], line,
                                                c.get("alpha", 1.0), c.get("beta"))
        r = rows[key]
        r["calls"] += 1
        if logged is None:
            r["api refused"] += 1
            continue
        if path is not None:
            r["path as predicted"] += path
        same = "arithmetic" in logged and logged["arithmetic"] == res.get("arithmetic")
        r["same arithmetic"] += same
        if "decline" in logged:
            r["logged config declined"] += 1
        if res.get("certain"):
            r["certain"] += 1
            r["certain but other arithmetic"] += not same and "arithmetic" in logged
        kind = "batched" if c["op"] in BATCHED and c["batch"] > 1 else \
            "bias" if res.get("call", {}).get("epilogue") == "bias" and "EPILOGUE_BIAS" in line else None
        # Only answers the model would compute count: an answer it declines is refused whatever its
        # certainty, so it can never give wrong bits.
        if kind and "arithmetic" in res:
            b = kinds[kind][c["type"]]
            b["calls"] += 1
            b["same_arithmetic"] += same
    cols = ["calls", "torch refused", "api refused", "path as predicted", "same arithmetic", "logged config declined", "certain",
            "certain but other arithmetic"]
    print("| op | type | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for (op, t), r in sorted(rows.items()):
        print(f"| {op} | {t} | " + " | ".join(str(r.get(k, 0)) for k in cols) + " |")
    print()
    for kind in sorted(kinds):
        for t, b in sorted(kinds[kind].items()):
            print(f"{kind} {t}: {b['same_arithmetic']} of {b['calls']} ({100 * b['same_arithmetic'] / max(b['calls'], 1):.1f}%)")
    if args.write_kinds:
        out = {"schema": "mmaemu-cublaslt-call-kinds/1",
               "source": args.source or os.path.abspath(args.dir),
               "rules": {"batched": "the single call's resolved configuration without split-K",
                         "bias": "the resolved configuration of the call without the epilogue"},
               "kinds": {kind: {t: {"calls": b["calls"], "same_arithmetic": b["same_arithmetic"]}
                                for t, b in sorted(kinds[kind].items())} for kind in sorted(kinds)}}
        with open(args.write_kinds, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


# --- replay ---------------------------------------------------------------------------------------

def operands(c, torch):
    """The call's operands as fresh.py drew them (CPU tensors), checked against their SHA-256."""
    from fresh import run_op_inputs
    inputs = run_op_inputs(c["op"], c["type"], np.random.default_rng(c["seed"]), c["m"], c["n"], c["k"], c["batch"])
    for name, v in inputs.items():
        iv = {torch.bfloat16: torch.int16, torch.float16: torch.int16, torch.float32: torch.int32}.get(v.dtype, torch.uint8)
        got = hashlib.sha256(v.contiguous().view(iv).numpy().tobytes()).hexdigest()
        if got != c["operands_sha256"][name]:
            raise RuntimeError(f"call {c['id']}: operand {name} does not regenerate (SHA-256 differs)")
    return inputs


def emulated(c, inputs, torch, F, calls=None):
    """The whole result through mmaemu.torch.emulate(strict=True), as a user's model would run it."""
    op, i = c["op"], inputs
    with mmaemu.torch.emulate("cublaslt-h200", backend="cpu", strict=True, tf32=c["type"] == "tf32", progress=False,
                              calls=calls):
        if op == "matmul":
            return torch.matmul(i["x"], i["w"])
        if op == "addmm":
            return torch.addmm(i["c"], i["x"], i["w"])
        if op == "addmm_bias":
            return torch.addmm(i["bias"], i["x"], i["w"].t())
        if op == "linear":
            return F.linear(i["x"], i["w"])
        if op == "linear_bias":
            return F.linear(i["x"], i["w"], i["bias"])
        if op == "bmm":
            return torch.bmm(i["x"], i["y"])
        if op == "baddbmm":
            return torch.baddbmm(i["c"], i["x"], i["y"])
        if op == "matmul3d":
            return torch.matmul(i["x"], i["y"])
        if op == "matmul4d":
            return torch.matmul(i["x"], i["y"].transpose(-1, -2))
        if op == "scaled_mm":
            return torch._scaled_mm(i["x"], i["w"].t(), scale_a=torch.tensor(0.5), scale_b=torch.tensor(2.0 ** -3),
                                    out_dtype=torch.bfloat16)
    raise ValueError(op)


def sampled(c, inputs, torch, algo=None, calls=None):
    """The sampled rows through mmaemu.torch_gemm(rows=...), with emulate(strict=True)'s arguments, or
    with the configuration cuBLAS(Lt) logged (algo)."""
    op, i, t = c["op"], inputs, c["type"]
    fmt = t if t != "e4m3" else "e4m3"
    gate = None if algo is not None else mmaemu.CERTAINTY_GATE
    out = []
    for b, r in c["sample_rows"]:
        kw = dict(mat1_type=fmt, mat2_type=fmt, out_type=D_TYPE[t], backend="cpu", min_certainty=gate, rows=[r],
                  algo=algo, calls=calls)
        if op == "matmul":
            d = mmaemu.torch_gemm("matmul", i["x"], i["w"], **kw)
        elif op == "addmm":
            d = mmaemu.torch_gemm("addmm", i["x"], i["w"], i["c"], beta=1.0, **kw)
        elif op == "addmm_bias":
            d = mmaemu.torch_gemm("addmm", i["x"], i["w"].t(), i["bias"], beta=1.0, mat2_transposed=True, **kw)
        elif op == "linear":
            d = mmaemu.torch_gemm("linear", i["x"], i["w"].t(), **kw)
        elif op == "linear_bias":
            d = mmaemu.torch_gemm("linear", i["x"], i["w"].t(), i["bias"], **kw)
        elif op in ("bmm", "matmul3d", "baddbmm"):
            bt = c["batch"]
            if bt == 1:
                d = mmaemu.torch_gemm("addmm" if op == "baddbmm" else "matmul", i["x"][b], i["y"][b],
                                      i["c"][b] if op == "baddbmm" else None, beta=1.0 if op == "baddbmm" else 0.0, **kw)
            else:
                d = mmaemu.torch_gemm("addmm" if op == "baddbmm" else "matmul", i["x"][b], i["y"][b],
                                      i["c"][b] if op == "baddbmm" else None, beta=1.0 if op == "baddbmm" else 0.0,
                                      batch=bt, **kw)
        elif op == "matmul4d":
            x = i["x"].reshape(-1, *i["x"].shape[-2:])
            y = i["y"].reshape(-1, *i["y"].shape[-2:])
            d = mmaemu.torch_gemm("matmul", x[b], y[b].t(), mat2_transposed=True, batch=c["batch"], **kw)
        elif op == "scaled_mm":
            d = mmaemu.torch_gemm("scaled_mm", i["x"], i["w"].t(), scale_a=0.5, scale_b=2.0 ** -3, **kw)
        else:
            raise ValueError(op)
        out.append(d.reshape(-1))
    return out


def bits_np(t, torch):
    iv = {torch.bfloat16: torch.int16, torch.float16: torch.int16, torch.float32: torch.int32}[t.dtype]
    return t.contiguous().view(iv).numpy()


def reason_of(message):
    m = re.search(r"algorithm (\d+)", message)
    if "not sure" in message:
        return "uncertain configuration" + (" (batched)" if "batched call" in message else "")
    if "no rules for cuBLASLt algorithm" in message and m:
        return f"algorithm {m.group(1)} without rules"
    if "not recorded" in message or "misses recorded bits" in message:
        return "configuration without rules"
    if "in D's buffer" in message:
        return "addmm in-place epilogue"
    if "refuses" in message:
        return "library refuses"
    return message[:80]


def replay_one(c, args):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(1)
    v = {"id": c["id"], "op": c["op"], "type": c["type"], "m": c["m"], "n": c["n"], "k": c["k"], "batch": c["batch"]}
    try:
        inputs = operands(c, torch)
        want = np.load(os.path.join(args.dir, "rows", f"{c['id']}.npy"))
        macs = c["m"] * c["n"] * c["k"] * c["batch"]
        if macs <= args.emulate_up_to:
            v["path"] = "emulate"
            d = emulated(c, inputs, torch, F, args.calls)
            flat = bits_np(d, torch).reshape(-1, d.shape[-2], d.shape[-1])
            got = [flat[b, r] for b, r in c["sample_rows"]]
        else:
            v["path"] = "rows"
            got = [bits_np(x, torch) for x in sampled(c, inputs, torch, calls=args.calls)]
        bad = sum(int(np.count_nonzero(g.view(w.dtype) != w)) for g, w in zip(got, want))
        v["verdict"] = "exact" if bad == 0 else "wrong"
        v["bad_outputs"] = bad
        v["outputs"] = int(sum(w.size for w in want))
    except mmaemu.InputError as e:
        v["verdict"] = "refused"
        v["reason"] = reason_of(str(e))
        v["message"] = str(e)[:400]
    except Exception as e:  # a failure of this script, not a verdict
        v["verdict"] = "error"
        v["message"] = f"{type(e).__name__}: {e}"[:400]
    # The library model alone: the sampled rows with the configuration cuBLAS(Lt) logged for the call.
    try:
        line = matmul_line(open(os.path.join(args.dir, "lt-log.txt"), "rb").read()[c["log"][0]:c["log"][1]]
                           .decode(errors="replace"))
        if line is None:
            v["logged"] = "no library call"
        else:
            v["config"] = config_of(line)
            got = [bits_np(x, torch) for x in sampled(c, inputs, torch, algo=v["config"])]
            want = np.load(os.path.join(args.dir, "rows", f"{c['id']}.npy"))
            bad = sum(int(np.count_nonzero(g.view(w.dtype) != w)) for g, w in zip(got, want))
            v["logged"] = "exact" if bad == 0 else "wrong"
            v["logged_bad_outputs"] = bad
    except mmaemu.InputError as e:
        v["logged"] = "refused"
        v["logged_reason"] = reason_of(str(e))
    except Exception as e:
        v["logged"] = "error"
        v["logged_message"] = f"{type(e).__name__}: {e}"[:400]
    return v


def replay(args):
    d = json.load(open(os.path.join(args.dir, "calls.json")))
    todo = [c for c in d["calls"] if "refused" not in c]
    if args.only:
        todo = [c for c in todo if c["id"] in set(args.only)]
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(args.jobs) as pool:
        verdicts = []
        for v in pool.map(replay_one, todo, [args] * len(todo)):
            verdicts.append(v)
            if sys.stderr.isatty():
                print(f"\r{len(verdicts)}/{len(todo)}", end="", file=sys.stderr)
    table = collections.defaultdict(collections.Counter)
    reasons = collections.Counter()
    for v in verdicts:
        table[(v["op"], v["type"])][v["verdict"]] += 1
        if v["verdict"] == "refused":
            reasons[(v["op"], v["type"], v["reason"])] += 1
    cols = ["exact", "refused", "wrong", "error"]
    print(f"calls drawn {len(d['calls'])}, torch refused {len(d['calls']) - len([c for c in d['calls'] if 'refused' not in c])}, "
          f"replayed {len(verdicts)}")
    print("| op | type | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    total = collections.Counter()
    for (op, t), r in sorted(table.items()):
        total.update(r)
        print(f"| {op} | {t} | " + " | ".join(str(r.get(k, 0)) for k in cols) + " |")
    print("| all | | " + " | ".join(str(total.get(k, 0)) for k in cols) + " |")
    print()
    print("| refused: op | type | reason | calls |")
    print("|---|---|---|---|")
    for (op, t, why), n in sorted(reasons.items()):
        print(f"| {op} | {t} | {why} | {n} |")
    print()
    logged = collections.defaultdict(collections.Counter)
    for v in verdicts:
        logged[(v["op"], v["type"])][v.get("logged", "-")] += 1
    lcols = ["exact", "refused", "wrong", "error", "no library call"]
    print("The library model with the configuration cuBLAS(Lt) logged (no resolver):")
    print("| op | type | " + " | ".join(lcols) + " |")
    print("|---|---|" + "---|" * len(lcols))
    for (op, t), r in sorted(logged.items()):
        print(f"| {op} | {t} | " + " | ".join(str(r.get(k, 0)) for k in lcols) + " |")
    for v in verdicts:
        if v.get("logged") in ("wrong", "error"):
            print(f"logged {v['logged']}: call {v['id']} {v['op']} {v['type']} {v['m']}x{v['n']}x{v['k']} batch {v['batch']}"
                  f" {v.get('config', {}).get('algo_id')} split {v.get('config', {}).get('split_k')}"
                  f" red {v.get('config', {}).get('reduction')}: {v.get('logged_bad_outputs', '')} {v.get('logged_message', '')}")
    for v in verdicts:
        if v["verdict"] in ("wrong", "error"):
            print(f"{v['verdict']}: call {v['id']} {v['op']} {v['type']} {v['m']}x{v['n']}x{v['k']} batch {v['batch']}"
                  f" ({v.get('path')}): {v.get('bad_outputs', '')} {v.get('message', '')}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"table": {f"{op} {t}": dict(r) for (op, t), r in sorted(table.items())}, "calls": verdicts}, f,
                      indent=1)
            f.write("\n")


def read_maybe_xz(path):
    import lzma
    return lzma.open(path + ".xz", "rb").read() if not os.path.exists(path) else open(path, "rb").read()


LIBRARY_TYPES = {"bf16": ("bf16", "bf16", "bf16", "32F"), "fp16": ("fp16", "fp16", "fp16", "32F"),
                 "fp32": ("fp32", "fp32", "fp32", "32F"), "tf32": ("tf32", "tf32", "fp32", "32F_FAST_TF32")}
CSV_COLUMNS = ["group", "a", "b", "d", "compute", "layout", "max_workspace", "m", "n", "k", "fast_accum", "alpha", "beta", "algo",
               "tile", "stages", "split_k", "reduction", "swizzle", "custom", "inner_shape", "cluster", "workspace", "tile_name",
               "stages_name", "refused", "batch", "epilogue"]


def batched_rows(args):
    import csv
    d = json.loads(read_maybe_xz(os.path.join(args.dir, "configs.json")))
    lt = read_maybe_xz(os.path.join(args.dir, "lt-log.txt"))
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for c in d["calls"]:
            if c["op"] not in BATCHED or c["batch"] <= 1 or "refused" in c:
                continue
            line = matmul_line(lt[c["log"][0]:c["log"][1]].decode(errors="replace"))
            if line is None:
                continue
            cfg = config_of(line)
            call = call_options(c["op"], c["type"], transposed=c["op"] == "matmul4d", batch=c["batch"])
            lc = json.loads(_mmaemu.resolve(call, c["m"], c["n"], c["k"]))["call"]
            a, b, dt, compute = LIBRARY_TYPES[c["type"]]
            w.writerow({"group": "torch-logged-held-out", "a": a, "b": b, "d": dt, "compute": compute,
                        "layout": lc.get("layout", "TN"), "max_workspace": 33554432, "m": lc["m"], "n": lc["n"], "k": lc["k"],
                        "fast_accum": 0, "alpha": 1, "beta": 0, "algo": cfg["algo_id"], "tile": 0, "stages": 0,
                        "split_k": cfg["split_k"], "reduction": cfg["reduction"], "swizzle": cfg["swizzle"],
                        "custom": cfg["custom"], "inner_shape": 0, "cluster": 0, "workspace": cfg["workspace"],
                        "tile_name": cfg["tile_name"], "stages_name": cfg["stages_name"], "refused": "",
                        "batch": c["batch"], "epilogue": "none"})


def inplace(args):
    import torch
    d = json.load(open(os.path.join(args.dir, "inplace.json")))
    lt = open(os.path.join(args.dir, "lt-log.txt"), "rb").read()
    from fresh import operand_bits
    print("| type | m x n x k | alpha | beta | configuration | model's epilogue | round(round(alpha acc) + beta C) |")
    print("|---|---|---|---|---|---|---|")
    for c in d["calls"]:
        line = matmul_line(lt[c["log"][0]:c["log"][1]].decode(errors="replace"))
        cfg = config_of(line)
        t, m, n, k = c["type"], c["m"], c["n"], c["k"]
        g = np.random.default_rng(c["seed"])
        cb, xb, wb = operand_bits(g, (m, n), t), operand_bits(g, (m, k), t), operand_bits(g, (k, n), t)
        want = np.load(os.path.join(args.dir, "t", f"{c['id']}.npy"))
        dt = {"bf16": torch.bfloat16, "fp16": torch.float16}[t]
        tens = lambda b: torch.from_numpy(b.view(np.int16)).view(dt)  # noqa: E731
        call = call_options("addmm", t)
        call.alpha, call.beta = c["alpha"], c["beta"]
        model = mmaemu.library_gemm(np.ascontiguousarray(wb.T), np.ascontiguousarray(xb.T), np.ascontiguousarray(cb.T),
                                    a_type=t, b_type=t, d_type=t, alpha=c["alpha"], beta=c["beta"], algo=cfg,
                                    layout="NN", backend="cpu").T
        # round(round(alpha * acc) + beta * C): the model with beta 0 gives round(alpha * acc)
        acc = mmaemu.library_gemm(np.ascontiguousarray(wb.T), np.ascontiguousarray(xb.T), None, a_type=t, b_type=t,
                                  d_type=t, alpha=c["alpha"], beta=0.0, algo=cfg, layout="NN", backend="cpu").T
        cf = tens(np.ascontiguousarray(cb)).float()
        alt = (tens(np.ascontiguousarray(acc).view(np.uint16)).float() + c["beta"] * cf).to(dt).view(torch.int16).numpy()
        bad_model = int(np.count_nonzero(np.ascontiguousarray(model).view(np.uint16) != want))
        bad_alt = int(np.count_nonzero(alt.view(np.uint16) != want))
        desc = f"algo {cfg['algo_id']} split {cfg.get('split_k', 1)}"
        print(f"| {t} | {m}x{n}x{k} | {c['alpha']} | {c['beta']} | {desc} | {bad_model} bad | {bad_alt} bad |")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["configs", "replay", "inplace", "batched-rows"])
    p.add_argument("dir")
    p.add_argument("--write-kinds")
    p.add_argument("--source", help="the measurement's provenance, for call-kinds.json")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--emulate-up-to", type=float, default=2e8)
    p.add_argument("--only", type=int, action="append")
    p.add_argument("--out")
    p.add_argument("--calls", help="replay: a capture of the calls (mmaemu-capture/1): emulate(calls=...)")
    args = p.parse_args()
    {"configs": configs, "replay": replay, "inplace": inplace, "batched-rows": batched_rows}[args.mode](args)


if __name__ == "__main__":
    main()
