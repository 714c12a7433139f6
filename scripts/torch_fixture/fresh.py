#!/usr/bin/env python3
"""Fresh PyTorch calls on this machine's GPU, for judging the library model on calls no fit has seen.

    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 fresh.py calls DIR [--seed S] [--count N]
    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 fresh.py configs DIR [--seed S] [--count N]
    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 fresh.py inplace DIR

calls: N calls drawn from the seed: an op (matmul, addmm with a full input, addmm with a bias, linear with
and without a bias, bmm, baddbmm, 3-D and 4-D matmul, _scaled_mm), a type (bf16, fp16, fp32, tf32; FP8
e4m3 for _scaled_mm), M, N, K log-uniform from 1 to 16384 without rounding (_scaled_mm: K and N rounded up
to 16, as torch requires), a batch log-uniform from 1 to 64 for the batched ops. Operands are drawn by
numpy from the call's own seed (`operands`), so a CPU regenerates them; their SHA-256 is kept to check
that. Of torch's result: its SHA-256, and the sampled rows (`sample_rows`: the first, the last and two
drawn, of up to two batches) as raw bits in DIR/rows/<id>.npy, so a CPU can replay the sampled rows of
any size of call. The cuBLAS(Lt) log's bytes of each call name the configuration that ran.

configs: the configuration the library runs (logged, nothing kept of the results) for N drawn calls of
the ops whose configuration the resolver was not fitted on: linear and addmm with a bias, bmm, 4-D
matmul; sizes as above (batches 2 to 64).

inplace: torch.addmm with a full input at shapes where 16-bit calls run algorithm 66 without split-K,
alpha and beta each 1 or not: which of the two makes cuBLAS add C in D's type (full results kept).
"""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # cpu: a dry run of this script only
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, "tf32": torch.float32,
          "e4m3": torch.float8_e4m3fn}
INT_VIEW = {torch.bfloat16: (torch.int16, np.uint16), torch.float16: (torch.int16, np.uint16),
            torch.float32: (torch.int32, np.uint32), torch.float8_e4m3fn: (torch.uint8, np.uint8)}
OPS = ["matmul", "addmm", "addmm_bias", "linear", "linear_bias", "bmm", "baddbmm", "matmul3d", "matmul4d",
       "scaled_mm"]
# Operand elements beyond which a call is redrawn (memory of one operand on the GPU: 2^31 bytes of fp32).
MAX_ELEMS = 1 << 29


def bits(t):
    iv, nv = INT_VIEW[t.dtype]
    return t.detach().contiguous().view(iv).cpu().numpy().view(nv)


def operand_bits(rng, shape, fmt):
    """Standard normal values rounded to the format (to nearest, ties to even), as raw bits, numpy only
    but for e4m3 (torch's CPU conversion, also to nearest even)."""
    x = rng.standard_normal(shape, dtype=np.float32)
    if fmt in ("fp32", "tf32"):
        return x.view(np.uint32)
    if fmt == "fp16":
        return x.astype(np.float16).view(np.uint16)
    if fmt == "e4m3":
        return torch.from_numpy(x).to(torch.float8_e4m3fn).view(torch.uint8).numpy()
    u = x.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def operand(rng, shape, fmt):
    b = operand_bits(rng, shape, fmt)
    iv = INT_VIEW[DTYPES[fmt]][0]
    view = {torch.int16: np.int16, torch.int32: np.int32, torch.uint8: np.uint8}[iv]
    return torch.from_numpy(b.view(view)).to(DEVICE).view(DTYPES[fmt])


def log_size(path):
    return os.path.getsize(path) if path and os.path.exists(path) else 0


def loguniform(rng, hi):
    return int(math.floor(math.exp(rng.uniform(0, math.log(hi + 1)))))


def draw(rng, op, t, batch_lo=1):
    """One call's sizes: m, n, k in [1, 16384], batch in [batch_lo, 64] for batched ops."""
    while True:
        m, n, k = (max(1, loguniform(rng, 16384)) for _ in range(3))
        if op == "scaled_mm":
            k, n = -(-k // 16) * 16, -(-n // 16) * 16
        bt = max(batch_lo, loguniform(rng, 64)) if op in ("bmm", "baddbmm", "matmul3d", "matmul4d") else 1
        if max(m * k, k * n, m * n) * bt <= MAX_ELEMS:
            return m, n, k, bt


def run_op_inputs(op, t, g, m, n, k, bt):
    """One call's operands, drawn from g in a fixed order (on DEVICE)."""
    if op == "matmul":
        return {"x": operand(g, (m, k), t), "w": operand(g, (k, n), t)}
    if op == "addmm":
        return {"c": operand(g, (m, n), t), "x": operand(g, (m, k), t), "w": operand(g, (k, n), t)}
    if op in ("addmm_bias", "linear_bias"):
        return {"bias": operand(g, (n,), t), "x": operand(g, (m, k), t), "w": operand(g, (n, k), t)}
    if op == "linear":
        return {"x": operand(g, (m, k), t), "w": operand(g, (n, k), t)}
    if op in ("bmm", "matmul3d"):
        return {"x": operand(g, (bt, m, k), t), "y": operand(g, (bt, k, n), t)}
    if op == "baddbmm":
        return {"c": operand(g, (bt, m, n), t), "x": operand(g, (bt, m, k), t), "y": operand(g, (bt, k, n), t)}
    if op == "matmul4d":  # attention's q @ k^T: (2, B/2, M, K) @ (2, B/2, N, K)^T
        b0 = 2 if bt % 2 == 0 else 1
        return {"x": operand(g, (b0, bt // b0, m, k), t), "y": operand(g, (b0, bt // b0, n, k), t)}
    if op == "scaled_mm":
        return {"x": operand(g, (m, k), "e4m3"), "w": operand(g, (n, k), "e4m3")}
    raise ValueError(op)


def run_op(op, t, g, m, n, k, bt):
    """(inputs dict, result) of one call."""
    i = run_op_inputs(op, t, g, m, n, k, bt)
    if op == "matmul":
        return i, torch.matmul(i["x"], i["w"])
    if op == "addmm":
        return i, torch.addmm(i["c"], i["x"], i["w"])
    if op == "addmm_bias":
        return i, torch.addmm(i["bias"], i["x"], i["w"].t())
    if op == "linear":
        return i, F.linear(i["x"], i["w"])
    if op == "linear_bias":
        return i, F.linear(i["x"], i["w"], i["bias"])
    if op in ("bmm", "matmul3d"):
        return i, (torch.bmm if op == "bmm" else torch.matmul)(i["x"], i["y"])
    if op == "baddbmm":
        return i, torch.baddbmm(i["c"], i["x"], i["y"])
    if op == "matmul4d":
        return i, torch.matmul(i["x"], i["y"].transpose(-1, -2))
    if op == "scaled_mm":  # per-tensor scales, mat2 column-major, into bf16
        sa = torch.tensor(0.5, device=DEVICE)
        sb = torch.tensor(2.0 ** -3, device=DEVICE)
        return i, torch._scaled_mm(i["x"], i["w"].t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
    raise ValueError(op)


def sample_rows(rng, result):
    """(batch, row) pairs of the result to keep: rows 0, last and two drawn, of the first and last batch."""
    lead = int(np.prod(result.shape[:-2])) if result.dim() > 2 else 1
    rows = result.shape[-2]
    batches = sorted({0, lead - 1})
    picked = sorted({0, rows - 1, int(rng.integers(rows)), int(rng.integers(rows))})
    return [[b, r] for b in batches for r in picked]


def record_calls(args, out):
    rng = np.random.default_rng(args.seed)
    os.makedirs(os.path.join(out, "rows"), exist_ok=True)
    log, cublas_log = os.environ.get("CUBLASLT_LOG_FILE"), os.environ.get("CUBLAS_LOGDEST_DBG")
    entries = []
    for i in range(args.count):
        op = OPS[int(rng.integers(len(OPS)))]
        t = "e4m3" if op == "scaled_mm" else ["bf16", "fp16", "fp32", "tf32"][int(rng.integers(4))]
        m, n, k, bt = draw(rng, op, t)
        seed = int(rng.integers(1 << 62))
        entry = {"id": i, "op": op, "type": t, "m": m, "n": n, "k": k, "batch": bt, "seed": seed}
        torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
        try:
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            before, cublas_before = log_size(log), log_size(cublas_log)
            inputs, result = run_op(op, t, np.random.default_rng(seed), m, n, k, bt)
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            entry["log"] = [before, log_size(log)]
            entry["cublas_log"] = [cublas_before, log_size(cublas_log)]
            entry["operands_sha256"] = {kk: hashlib.sha256(bits(v).tobytes()).hexdigest() for kk, v in inputs.items()}
            entry["shape"] = list(result.shape)
            entry["dtype"] = str(result.dtype)
            rb = bits(result)
            entry["result_sha256"] = hashlib.sha256(rb.tobytes()).hexdigest()
            flat = rb.reshape(-1, result.shape[-2], result.shape[-1])
            pick = sample_rows(rng, result)
            entry["sample_rows"] = pick
            np.save(os.path.join(out, "rows", f"{i}.npy"), np.stack([flat[b, r] for b, r in pick]))
            del inputs, result
        except Exception as e:
            entry["refused"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        entries.append(entry)
        if DEVICE == "cuda":
            torch.cuda.empty_cache()
    return entries


def record_configs(args, out):
    rng = np.random.default_rng(args.seed)
    log = os.environ.get("CUBLASLT_LOG_FILE")
    entries = []
    ops = ["linear_bias", "addmm_bias", "bmm", "matmul4d"]
    for i in range(args.count):
        op = ops[i % len(ops)]
        t = ["bf16", "fp16", "fp32", "tf32"][(i // len(ops)) % 4]
        m, n, k, bt = draw(rng, op, t, batch_lo=2)
        entry = {"id": i, "op": op, "type": t, "m": m, "n": n, "k": k, "batch": bt}
        torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
        try:
            torch.cuda.synchronize()
            before = log_size(log)
            g = torch.Generator(device=DEVICE).manual_seed(i)
            def rnd(*s):
                return torch.randn(*s, generator=g, device=DEVICE, dtype=torch.float32).to(DTYPES[t])
            if op == "linear_bias":
                F.linear(rnd(m, k), rnd(n, k), rnd(n))
            elif op == "addmm_bias":
                torch.addmm(rnd(n), rnd(m, k), rnd(n, k).t())
            elif op == "bmm":
                torch.bmm(rnd(bt, m, k), rnd(bt, k, n))
            else:
                b0 = 2 if bt % 2 == 0 else 1
                torch.matmul(rnd(b0, bt // b0, m, k), rnd(b0, bt // b0, n, k).transpose(-1, -2))
            torch.cuda.synchronize()
            entry["log"] = [before, log_size(log)]
        except Exception as e:
            entry["refused"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        entries.append(entry)
        torch.cuda.empty_cache()
    return entries


def record_inplace(args, out):
    os.makedirs(os.path.join(out, "t"), exist_ok=True)
    log = os.environ.get("CUBLASLT_LOG_FILE")
    entries = []
    i = 0
    for t in ("bf16", "fp16"):
        for (m, n, k) in [(64, 96, 200), (128, 256, 1024), (133, 217, 1000), (256, 512, 4096), (1000, 1000, 1000)]:
            for (alpha, beta) in [(1.0, 1.0), (1.0, 0.5), (1.7, 1.0), (1.7, 0.5), (1.0, 0.0)]:
                seed = 7000 + i
                entry = {"id": i, "op": "addmm", "type": t, "m": m, "n": n, "k": k, "batch": 1, "seed": seed,
                         "alpha": alpha, "beta": beta}
                g = np.random.default_rng(seed)
                torch.cuda.synchronize()
                before = log_size(log)
                c, x, w = operand(g, (m, n), t), operand(g, (m, k), t), operand(g, (k, n), t)
                r = torch.addmm(c, x, w, alpha=alpha, beta=beta)
                torch.cuda.synchronize()
                entry["log"] = [before, log_size(log)]
                entry["operands_sha256"] = {kk: hashlib.sha256(bits(v).tobytes()).hexdigest()
                                            for kk, v in {"c": c, "x": x, "w": w}.items()}
                np.save(os.path.join(out, "t", f"{i}.npy"), bits(r))
                entries.append(entry)
                i += 1
    return entries


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["calls", "configs", "inplace"])
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=20261207)
    p.add_argument("--count", type=int, default=400)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    entries = {"calls": record_calls, "configs": record_configs, "inplace": record_inplace}[args.mode](args, args.out)
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        smi = "no nvidia-smi"
    info = {"mode": args.mode, "seed": args.seed, "torch": torch.__version__, "torch_cuda": torch.version.cuda,
            "gpu_driver": smi, "gpu": torch.cuda.get_device_name() if DEVICE == "cuda" else "none",
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count if DEVICE == "cuda" else 0,
            "loaded_libraries": sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcublas" in l}),
            "calls": entries}
    json.dump(info, open(os.path.join(args.out, f"{args.mode}.json"), "w"), indent=1)
    print(f"{args.mode}: {len(entries)} calls, {sum('refused' in e for e in entries)} refused")


if __name__ == "__main__":
    main()
