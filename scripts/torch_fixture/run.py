#!/usr/bin/env python3
"""Runs the PyTorch fixture's calls on this machine's GPU (the device side of fixtures/torch-h200).

Reads DIR/recording.json and DIR/ops/ as `mmaemu record --cublaslt fixtures/torch-h200/plan.yaml
--inputs-only --out DIR` wrote them (the library's view of each call, plan.py), runs each call through
torch (the group's first word names the operation), and writes torch's result as the library's D'
= D^T into DIR/d/<call>-0.npy (raw bits, row-major contract) and DIR/torch.json (versions, the
libraries this process loaded, one entry per call in order). Run it with CUBLASLT_LOG_LEVEL=2 so that
cuBLASLt logs the configuration of every matmul; assemble.py pairs the log's lines with the calls.

    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 run.py DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # cpu: a dry run of this script only
STORAGE = {"bf16": (np.uint16, torch.int16, torch.bfloat16), "fp16": (np.uint16, torch.int16, torch.float16),
           "fp32": (np.uint32, torch.int32, torch.float32), "tf32": (np.uint32, torch.int32, torch.float32),
           "e4m3": (np.uint8, torch.uint8, torch.float8_e4m3fn), "e5m2": (np.uint8, torch.uint8, torch.float8_e5m2)}


def tensor(path, fmt):
    """A contract-layout operand file as a CUDA tensor of the format's torch dtype (bits unchanged)."""
    nv, iv, dt = STORAGE[fmt]
    x = np.load(path)
    assert x.dtype == nv, (path, x.dtype)
    return torch.from_numpy(x.view(np.int16) if iv == torch.int16 else x.view(np.int32) if iv == torch.int32 else x) \
        .to(DEVICE).view(dt)


def bits(t):
    nv, iv, _ = STORAGE[{torch.bfloat16: "bf16", torch.float16: "fp16", torch.float32: "fp32"}[t.dtype]]
    return t.contiguous().view(iv).cpu().numpy().view(nv)


def loaded_libraries():
    return sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcublas" in l})


def main():
    out = sys.argv[1]
    rec = json.load(open(os.path.join(out, "recording.json")))
    os.makedirs(os.path.join(out, "d"), exist_ok=True)
    entries = []
    for c in rec["calls"]:
        call, i = c["call"], c["id"]
        op = c["group"].split("-")[0]
        a_fmt, b_fmt, d_fmt = call["a"], call["b"], call["d"]
        ops = os.path.join(out, "ops", f"{i}-")
        Ap, Bp = tensor(ops + "a.npy", a_fmt), tensor(ops + "b.npy", b_fmt)  # A'[n][k], B'[k][m]
        torch.backends.cuda.matmul.allow_tf32 = a_fmt == "tf32"
        X = Bp.t().contiguous()  # torch mat1 [m][k]
        entry = {"id": i, "op": op, "group": c["group"]}
        try:
            if op == "matmul":
                D = X @ Ap.t().contiguous()  # W[k][n] row-major: the library sees NN
            elif op == "addmm":
                C = tensor(ops + "c.npy", call["c"]).t().contiguous()  # C[m][n]
                D = torch.addmm(C, X, Ap.t().contiguous(), beta=call["beta"], alpha=call["alpha"])
            elif op == "linear":
                D = F.linear(X, Ap)  # weight W[n][k]: the library sees TN
            elif op == "scaled_mm":
                out_dtype = {"bf16": torch.bfloat16, "fp32": torch.float32, "fp16": torch.float16}[d_fmt]
                D = torch._scaled_mm(X, Ap.t(), scale_a=torch.tensor(call["scale_b"], device=DEVICE),
                                     scale_b=torch.tensor(call["scale_a"], device=DEVICE), out_dtype=out_dtype,
                                     use_fast_accum=call.get("fast_accum", False))
            else:
                raise ValueError("unknown torch operation " + op)
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            np.save(os.path.join(out, "d", f"{i}-0.npy"), bits(D.t()))
            entry["d"] = f"d/{i}-0.npy"
        except Exception as e:  # a call torch refuses is an outcome, recorded as such
            entry["refused"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        entries.append(entry)
        print(f"{i} {c['group']} {call['a']}x{call['b']}->{call['d']} {call['m']}x{call['n']}x{call['k']}: "
              + ("ok" if "d" in entry else entry["refused"]), flush=True)
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        smi = "no nvidia-smi"
    info = {"torch": torch.__version__, "torch_cuda": torch.version.cuda, "cublas_version": torch.backends.cuda.cublas_version()
            if hasattr(torch.backends.cuda, "cublas_version") else None, "gpu_driver": smi,
            "gpu": torch.cuda.get_device_name() if DEVICE == "cuda" else "none",
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count if DEVICE == "cuda" else 0,
            "loaded_libraries": loaded_libraries(), "calls": entries,
            "env": {k: os.environ.get(k) for k in ("TORCH_BLAS_PREFER_CUBLASLT", "CUBLAS_WORKSPACE_CONFIG")}}
    json.dump(info, open(os.path.join(out, "torch.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
