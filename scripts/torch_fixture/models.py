#!/usr/bin/env python3
"""Every matmul-family call of a transformers model's forward pass, recorded on a GPU and replayed on a CPU.

    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 models.py record DIR    # on the GPU
    python3 models.py replay DIR [--out FILE] [--lenient] [--calls CAPTURE]                # anywhere
    python3 models.py capture DIR --out CAPTURE                                           # anywhere
    PYTHONPATH=<mmaemu's module for this Python> python3 models.py capture-gpu OUT        # on the GPU

record: Llama and GPT-2 built from a small config (seeded weights, eager attention; transformers' own
modules), in bf16, fp16, fp32 and tf32 (fp32 weights with torch.backends.cuda.matmul.allow_tf32), one
forward pass over seeded token ids (batch 2, 37 tokens: sizes that are not powers of two). A
TorchFunctionMode catches every call of the matmul family the model makes (torch.matmul and @, mm, bmm,
baddbmm, addmm, F.linear: what mmaemu.torch.emulate intercepts) and keeps, per call, every tensor
argument as it was handed over (its storage span's raw bits, its size, strides and offset, so that a view
is rebuilt as the same view), the scalar arguments, the result's raw bits, and the byte range of the
cuBLAS(Lt) log the call wrote (the configuration that ran). DIR/calls.json lists them; DIR/t/<n>.npy
holds the tensors.

replay: each call rebuilt on CPU tensors and run through mmaemu.torch.emulate("cublaslt-h200",
strict=True), as a user's model would run under it; its bits against the GPU's (--lenient: strict=False, to
see what the calls refused for the resolver's certainty would give). A table per model x
type: calls, exact, refused (with the reason), wrong. A wrong bit is a defect; a refusal names why.
--calls: emulate(calls=CAPTURE), each call with the configuration the library ran for it.

capture: the capture of DIR's calls (mmaemu-capture/1) from calls.json and cuBLASLt's log of the run
(lt-log.txt, or lt-log.txt.xz): each call described as mmaemu.torch.emulate describes it (on tensors of
the recorded sizes and strides; their values are not needed) and paired with its log line, as
mmaemu.torch.capture pairs them on the GPU.

capture-gpu: the same forward passes under mmaemu.torch.capture on the GPU: OUT/<model>-<type>.jsonl, each
the library's own record of what it ran (its logger callback), to hold against `capture`'s from the log.
"""
import argparse
import collections
import hashlib
import json
import os
import sys
import warnings

import numpy as np

TYPES = ["bf16", "fp16", "fp32", "tf32"]
MODELS = ["llama", "gpt2"]
BATCH, TOKENS, VOCAB = 2, 37, 1000


def dtypes(torch):
    return {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, "tf32": torch.float32}


def int_view(torch, dtype):
    return {torch.bfloat16: (torch.int16, np.uint16), torch.float16: (torch.int16, np.uint16),
            torch.float32: (torch.int32, np.uint32)}[dtype]


def family(torch):
    """The functions mmaemu.torch.emulate intercepts, by the name a replay calls them by."""
    F = torch.nn.functional
    return {torch.matmul: "matmul", torch.Tensor.matmul: "matmul", torch.Tensor.__matmul__: "matmul",
            torch.mm: "mm", torch.Tensor.mm: "mm", torch.bmm: "bmm", torch.Tensor.bmm: "bmm",
            torch.baddbmm: "baddbmm", torch.Tensor.baddbmm: "baddbmm", torch.addmm: "addmm",
            torch.Tensor.addmm: "addmm", F.linear: "linear"}


def build(name, torch):
    import transformers
    torch.manual_seed(0)
    if name == "llama":
        cfg = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=256, intermediate_size=688, num_hidden_layers=2,
                                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
        cls = transformers.LlamaForCausalLM
    else:
        cfg = transformers.GPT2Config(vocab_size=VOCAB, n_embd=256, n_layer=2, n_head=4, n_positions=128)
        cls = transformers.GPT2LMHeadModel
    cfg._attn_implementation = "eager"
    return cls(cfg)


def log_size(path):
    return os.path.getsize(path) if path and os.path.exists(path) else 0


def record(out):
    import torch
    from torch.overrides import TorchFunctionMode
    os.makedirs(os.path.join(out, "t"), exist_ok=True)
    log = os.environ.get("CUBLASLT_LOG_FILE")
    names = family(torch)
    device = "cuda" if torch.cuda.is_available() else "cpu"  # cpu: a dry run of this script only
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    calls = []
    saved = {}  # sha256 of a span's bits -> its file

    def keep(t):
        """A tensor argument as it was handed over: its storage span's bits and the view on it."""
        extent = 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()) if s > 0) if t.numel() else 0
        span = torch.as_strided(t, (extent,), (1,), t.storage_offset()).detach().clone()
        iv, nv = int_view(torch, t.dtype)
        raw = span.view(iv).cpu().numpy().view(nv)
        digest = hashlib.sha256(raw.tobytes()).hexdigest()  # tf32's weights are fp32's: kept once
        if digest not in saved:
            saved[digest] = len(saved)
            np.save(os.path.join(out, "t", f"{saved[digest]}.npy"), raw)
        idx = saved[digest]
        return {"tensor": idx, "dtype": str(t.dtype).replace("torch.", ""), "size": list(t.shape),
                "stride": list(t.stride())}

    def describe(a):
        if isinstance(a, torch.Tensor):
            return keep(a)
        if isinstance(a, (int, float, bool)) or a is None:
            return {"value": a}
        raise TypeError(f"argument of type {type(a).__name__}")

    class Recorder(TorchFunctionMode):
        current = None

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = names.get(func)
            if name is None:
                return func(*args, **kwargs)
            sync()
            before = log_size(log)
            result = func(*args, **kwargs)
            sync()
            entry = dict(self.current, id=len(calls), func=name, args=[describe(a) for a in args],
                         kwargs={k: describe(v) for k, v in kwargs.items()}, result=keep(result.contiguous()),
                         log=[before, log_size(log)])
            calls.append(entry)
            return result

    rec = Recorder()
    for model_name in MODELS:
        for t in TYPES:
            torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
            model = build(model_name, torch).to(device, dtypes(torch)[t]).eval()
            g = torch.Generator().manual_seed(1)
            ids = torch.randint(0, VOCAB, (BATCH, TOKENS), generator=g).to(device)
            rec.current = {"model": model_name, "type": t}
            with torch.no_grad(), rec:
                model(ids)
            print(f"{model_name} {t}: {sum(c['model'] == model_name and c['type'] == t for c in calls)} calls",
                  flush=True)
            del model
            if device == "cuda":
                torch.cuda.empty_cache()
    torch.backends.cuda.matmul.allow_tf32 = False
    import transformers
    info = {"torch": torch.__version__, "torch_cuda": torch.version.cuda, "transformers": transformers.__version__,
            "gpu": torch.cuda.get_device_name() if device == "cuda" else "none",
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count if device == "cuda" else 0,
            "loaded_libraries": sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcublas" in l}),
            "batch": BATCH, "tokens": TOKENS, "calls": calls}
    json.dump(info, open(os.path.join(out, "calls.json"), "w"), indent=1)
    print(f"{len(calls)} calls recorded")


def rebuild(d, desc, torch):
    """A recorded tensor argument as a CPU tensor: the same view on the same bits."""
    if "value" in desc:
        return desc["value"]
    dtype = getattr(torch, desc["dtype"])
    iv, _ = int_view(torch, dtype)
    span = torch.from_numpy(np.load(os.path.join(d, "t", f"{desc['tensor']}.npy")).view(np.int32 if iv == torch.int32 else np.int16))
    span = span.view(dtype)
    return torch.as_strided(span, desc["size"], desc["stride"], 0)


def capture_gpu(out):
    import torch

    import mmaemu
    import mmaemu.torch  # noqa: F401
    os.makedirs(out, exist_ok=True)
    for model_name in MODELS:
        for t in TYPES:
            torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
            model = build(model_name, torch).to("cuda", dtypes(torch)[t]).eval()
            g = torch.Generator().manual_seed(1)
            ids = torch.randint(0, VOCAB, (BATCH, TOKENS), generator=g).to("cuda")
            path = os.path.join(out, f"{model_name}-{t}.jsonl")
            with torch.no_grad(), mmaemu.torch.capture(path, tf32=t == "tf32"):
                model(ids)
            print(f"{path}: {sum(1 for _ in open(path)) - 1} calls")
            del model
    torch.backends.cuda.matmul.allow_tf32 = False
    return 0


def capture(args):
    import lzma

    import torch

    import mmaemu
    import mmaemu.torch  # noqa: F401
    from mmaemu._cublaslt_log import config_of, matmul_line, shape_mismatch
    info = json.load(open(os.path.join(args.dir, "calls.json")))
    log_path = os.path.join(args.dir, "lt-log.txt")
    lt = open(log_path, "rb").read() if os.path.exists(log_path) else lzma.open(log_path + ".xz").read()
    fn = {"matmul": torch.matmul, "mm": torch.mm, "bmm": torch.bmm, "baddbmm": torch.baddbmm, "addmm": torch.addmm,
          "linear": torch.nn.functional.linear}

    def shaped(desc):  # the recorded view's size and strides: what describes the call
        if "value" in desc:
            return desc["value"]
        return torch.empty_strided(desc["size"], desc["stride"], dtype=getattr(torch, desc["dtype"]))

    entries, left_out, conflicting = {}, collections.Counter(), set()
    for c in info["calls"]:
        torch.backends.cuda.matmul.allow_tf32 = c["type"] == "tf32"
        described = []
        try:
            with mmaemu.torch.emulate("cublaslt-h200", strict=True, progress=False, _describe=described):
                fn[c["func"]](*[shaped(x) for x in c["args"]], **{k: shaped(v) for k, v in c["kwargs"].items()})
        except mmaemu.InputError as e:
            left_out[f"not described: {reason_of(str(e))}"] += 1
            continue
        calls = {json.dumps(x, sort_keys=True): x for x in described if x["m"] and x["n"] and x["k"]}
        line = matmul_line(lt[c["log"][0]:c["log"][1]].decode(errors="replace")) if c.get("log") else None
        if len(calls) != 1 or line is None:
            left_out["no single library call with its log line"] += 1
            continue
        call = next(iter(calls.values()))
        if shape_mismatch(line, call):
            left_out["the log's descriptors are another call"] += 1
            continue
        key, config = json.dumps(call, sort_keys=True), config_of(line)
        if key in conflicting:
            continue
        if key in entries and entries[key]["config"] != config:  # run two ways: its replay would guess
            del entries[key]
            conflicting.add(key)
            left_out["one call run with two configurations"] += 1
            continue
        entries.setdefault(key, {"op": f"{c['model']} {c['type']} {c['func']}", "call": call, "config": config})
    torch.backends.cuda.matmul.allow_tf32 = False
    header = {"schema": "mmaemu-capture/1", "library": {"name": "cublasLt", "version": args.library_version},
              "gpu": {"name": info.get("gpu", ""), "sm_count": info.get("sm_count", 0)}, "torch": info.get("torch", ""),
              "source": f"scripts/torch_fixture/models.py capture of {args.source or args.dir}: {len(entries)} calls; "
                        f"left out: {dict(left_out) or 'none'}"}
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        for e in entries.values():
            f.write(json.dumps(e, separators=(",", ":")) + "\n")
    os.replace(tmp, args.out)
    print(f"{args.out}: {len(entries)} calls; left out: {dict(left_out) or 'none'}")
    return 0


def reason_of(message):
    for key in ("not sure", "certainty", "no rules", "without rules", "not modelled", "not recorded"):
        if key in message:
            return key
    return message[:80]


def replay(args):
    import torch

    import mmaemu
    import mmaemu.torch  # noqa: F401
    info = json.load(open(os.path.join(args.dir, "calls.json")))
    fn = {"matmul": torch.matmul, "mm": torch.mm, "bmm": torch.bmm, "baddbmm": torch.baddbmm, "addmm": torch.addmm,
          "linear": torch.nn.functional.linear}
    rows = collections.OrderedDict()
    details = []
    for c in info["calls"]:
        key = (c["model"], c["type"])
        r = rows.setdefault(key, collections.Counter())
        r["calls"] += 1
        a = [rebuild(args.dir, x, torch) for x in c["args"]]
        kw = {k: rebuild(args.dir, v, torch) for k, v in c["kwargs"].items()}
        want = np.load(os.path.join(args.dir, "t", f"{c['result']['tensor']}.npy"))
        v = {"id": c["id"], "model": c["model"], "type": c["type"], "func": c["func"],
             "shapes": [x["size"] for x in c["args"] if "size" in x]}
        torch.backends.cuda.matmul.allow_tf32 = c["type"] == "tf32"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with mmaemu.torch.emulate("cublaslt-h200", backend="cpu", strict=not args.lenient, progress=False,
                                          calls=args.calls):
                    got = fn[c["func"]](*a, **kw)
            iv, nv = int_view(torch, got.dtype)
            gb = got.contiguous().view(iv).numpy().view(nv).reshape(-1)
            wrong = int(np.count_nonzero(gb != want.reshape(-1))) if gb.size == want.size else -1
            v["wrong_outputs"] = wrong
            r["exact" if wrong == 0 else "wrong"] += 1
        except mmaemu.InputError as e:
            v["refused"] = str(e)
            r["refused"] += 1
            r["refused: " + reason_of(str(e))] += 1
        details.append(v)
    torch.backends.cuda.matmul.allow_tf32 = False
    lines = ["| model | type | calls | exact | refused | wrong |", "|---|---|--:|--:|--:|--:|"]
    total = collections.Counter()
    for (m, t), r in rows.items():
        lines.append(f"| {m} | {t} | {r['calls']} | {r['exact']} | {r['refused']} | {r['wrong']} |")
        total.update(r)
    lines.append(f"| all | | {total['calls']} | {total['exact']} | {total['refused']} | {total['wrong']} |")
    reasons = {k[len('refused: '):]: v for k, v in total.items() if k.startswith("refused: ")}
    text = "\n".join(lines) + ("\n\nRefused: " + ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items()))
                               if reasons else "") + "\n"
    print(text, end="")
    if args.out:
        json.dump({"source": info.get("gpu"), "torch": info.get("torch"), "transformers": info.get("transformers"),
                   "table": text, "calls": details}, open(args.out, "w"), indent=1)
    return 1 if total["wrong"] else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("record")
    r.add_argument("out")
    q = sub.add_parser("replay")
    q.add_argument("dir")
    q.add_argument("--out")
    q.add_argument("--lenient", action="store_true",
                   help="emulate(strict=False): compute the calls strict refuses for the resolver's certainty (what they would give)")
    q.add_argument("--calls", help="a capture of the calls (models.py capture): emulate(calls=...)")
    k = sub.add_parser("capture")
    k.add_argument("dir")
    k.add_argument("--out", required=True)
    k.add_argument("--library-version", type=int, default=130100)
    k.add_argument("--source", help="where the run is kept, for the header")
    g = sub.add_parser("capture-gpu")
    g.add_argument("out")
    args = p.parse_args()
    if args.mode == "capture-gpu":
        return capture_gpu(args.out)
    if args.mode == "record":
        record(args.out)
        return 0
    if args.mode == "capture":
        return capture(args)
    return replay(args)


if __name__ == "__main__":
    sys.exit(main())
