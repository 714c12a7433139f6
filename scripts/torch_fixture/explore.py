#!/usr/bin/env python3
"""Records, on this machine's GPU, the PyTorch calls the library model does not cover yet, raw: a bias
vector (addmm with a 1-D input, F.linear with a bias), batched products (bmm, baddbmm, 3-D and 4-D
matmul), an empty K, and the vector forms (mv, vector @ matrix, dot). For each call: its operands and
torch's result as raw bits (.npy), the call's description, and the cuBLAS(Lt) log lines it wrote (run
with CUBLASLT_LOG_LEVEL=2 and CUBLASLT_LOG_FILE=DIR/lt-log.txt; each call's lines are the log's bytes
between its start and end; with CUBLAS_LOGINFO_DBG=1 and CUBLAS_LOGDEST_DBG=DIR/cublas-log.txt, cuBLAS's
own API calls too). Operands are not kept: numpy draws them from the call's seed (operand_bits), so
they regenerate anywhere; their SHA-256 is kept to check that. So that a rule can be fitted to what the hardware gave and the calls replayed.

    CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=DIR/lt-log.txt python3 explore.py DIR
"""
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, "tf32": torch.float32}
INT_VIEW = {torch.bfloat16: (torch.int16, np.uint16), torch.float16: (torch.int16, np.uint16),
            torch.float32: (torch.int32, np.uint32)}


def bits(t):
    iv, nv = INT_VIEW[t.dtype]
    return t.detach().contiguous().view(iv).cpu().numpy().view(nv)


def operand_bits(rng, shape, dtype):
    """Standard normal values rounded to the dtype (to nearest, ties to even), as raw bits: numpy only, so
    that a machine without torch regenerates the same operands from the call's seed."""
    x = rng.standard_normal(shape).astype(np.float32)
    if dtype == torch.float32:
        return x.view(np.uint32)
    if dtype == torch.float16:
        return x.astype(np.float16).view(np.uint16)
    u = x.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def operand(rng, shape, dtype):
    iv, _ = INT_VIEW[dtype]
    return torch.from_numpy(operand_bits(rng, shape, dtype).view(np.int16 if iv == torch.int16 else np.int32)) \
        .to(DEVICE).view(dtype)


def log_size(path):
    return os.path.getsize(path) if path and os.path.exists(path) else 0


def calls():
    """(name, type, function of a generator returning (inputs dict, result))."""
    bias_shapes = [(7, 33, 40), (64, 96, 200), (128, 256, 1024), (133, 217, 1000), (74, 256, 688), (1, 4096, 1104),
                   (2, 158, 5890), (420, 101, 1571)]
    for t in ("bf16", "fp16", "fp32", "tf32"):
        dt = DTYPES[t]
        for (m, n, k) in bias_shapes:
            def addmm_bias(g, m=m, n=n, k=k, dt=dt):
                b, x, w = operand(g, (n,), dt), operand(g, (m, k), dt), operand(g, (n, k), dt)
                return {"bias": b, "x": x, "w": w}, torch.addmm(b, x, w.t())
            yield f"addmm_bias-{m}x{n}x{k}", t, addmm_bias

            def addmm_bias_scaled(g, m=m, n=n, k=k, dt=dt):
                b, x, w = operand(g, (n,), dt), operand(g, (m, k), dt), operand(g, (n, k), dt)
                return {"bias": b, "x": x, "w": w}, torch.addmm(b, x, w.t(), beta=0.5, alpha=1.7)
            yield f"addmm_bias_scaled-{m}x{n}x{k}", t, addmm_bias_scaled

            def linear_bias(g, m=m, n=n, k=k, dt=dt):
                b, x, w = operand(g, (n,), dt), operand(g, (m, k), dt), operand(g, (n, k), dt)
                return {"bias": b, "x": x, "w": w}, F.linear(x, w, b)
            yield f"linear_bias-{m}x{n}x{k}", t, linear_bias

            def addmm_full(g, m=m, n=n, k=k, dt=dt):
                c, x, w = operand(g, (m, n), dt), operand(g, (m, k), dt), operand(g, (n, k), dt)
                return {"c": c, "x": x, "w": w}, torch.addmm(c, x, w.t())
            yield f"addmm_full-{m}x{n}x{k}", t, addmm_full
        for (m, n, k) in bias_shapes[:3]:
            def linear_bias_relu(g, m=m, n=n, k=k, dt=dt):
                b, x, w = operand(g, (n,), dt), operand(g, (m, k), dt), operand(g, (n, k), dt)
                return {"bias": b, "x": x, "w": w}, F.relu(F.linear(x, w, b))
            yield f"linear_bias_relu-{m}x{n}x{k}", t, linear_bias_relu

            def linear3d_bias(g, m=m, n=n, k=k, dt=dt):
                b, x, w = operand(g, (n,), dt), operand(g, (3, m, k), dt), operand(g, (n, k), dt)
                return {"bias": b, "x": x, "w": w}, F.linear(x, w, b)
            yield f"linear3d_bias-3x{m}x{n}x{k}", t, linear3d_bias
        for (bt, m, n, k) in [(1, 64, 64, 64), (2, 64, 64, 64), (12, 77, 77, 64), (12, 64, 77, 77), (48, 32, 32, 64),
                              (4, 1, 4096, 1104), (3, 133, 217, 1000), (2, 16, 16, 11528), (5, 2, 158, 5890),
                              (3, 257, 64, 96)]:
            def bmm(g, bt=bt, m=m, n=n, k=k, dt=dt):
                x, y = operand(g, (bt, m, k), dt), operand(g, (bt, k, n), dt)
                return {"x": x, "y": y}, torch.bmm(x, y)
            yield f"bmm-{bt}x{m}x{n}x{k}", t, bmm

            def bmm_t(g, bt=bt, m=m, n=n, k=k, dt=dt):
                x, y = operand(g, (bt, m, k), dt), operand(g, (bt, n, k), dt)
                return {"x": x, "y": y}, torch.bmm(x, y.transpose(1, 2))
            yield f"bmm_t-{bt}x{m}x{n}x{k}", t, bmm_t

            def baddbmm(g, bt=bt, m=m, n=n, k=k, dt=dt):
                c, x, y = operand(g, (bt, m, n), dt), operand(g, (bt, m, k), dt), operand(g, (bt, k, n), dt)
                return {"c": c, "x": x, "y": y}, torch.baddbmm(c, x, y, beta=0.5, alpha=0.125)
            yield f"baddbmm-{bt}x{m}x{n}x{k}", t, baddbmm
        for (b0, h, m, n, k) in [(2, 12, 77, 77, 64), (2, 12, 77, 64, 77), (1, 32, 16, 16, 128), (2, 4, 1, 300, 64)]:
            def matmul4d(g, b0=b0, h=h, m=m, n=n, k=k, dt=dt):
                x, y = operand(g, (b0, h, m, k), dt), operand(g, (b0, h, k, n), dt)
                return {"x": x, "y": y}, torch.matmul(x, y)
            yield f"matmul4d-{b0}x{h}x{m}x{n}x{k}", t, matmul4d

            def matmul4d_t(g, b0=b0, h=h, m=m, n=n, k=k, dt=dt):  # q @ k^T as attention writes it
                x, y = operand(g, (b0, h, m, k), dt), operand(g, (b0, h, n, k), dt)
                return {"x": x, "y": y}, torch.matmul(x, y.transpose(-1, -2))
            yield f"matmul4d_t-{b0}x{h}x{m}x{n}x{k}", t, matmul4d_t
        for (bt, m, n, k) in [(3, 5, 7, 9), (4, 77, 300, 64)]:
            def matmul_bcast(g, bt=bt, m=m, n=n, k=k, dt=dt):  # (B, M, K) @ (K, N): folded into one mm
                x, y = operand(g, (bt, m, k), dt), operand(g, (k, n), dt)
                return {"x": x, "y": y}, torch.matmul(x, y)
            yield f"matmul_bcast-{bt}x{m}x{n}x{k}", t, matmul_bcast

            def matmul_bcast_b(g, bt=bt, m=m, n=n, k=k, dt=dt):  # (M, K) @ (B, K, N): batched, A broadcast
                x, y = operand(g, (m, k), dt), operand(g, (bt, k, n), dt)
                return {"x": x, "y": y}, torch.matmul(x, y)
            yield f"matmul_bcast_b-{bt}x{m}x{n}x{k}", t, matmul_bcast_b
        for (m, n) in [(3, 5), (64, 96)]:
            for beta in (0.0, 1.0, 0.5, 1.7):
                def addmm_k0(g, m=m, n=n, beta=beta, dt=dt):
                    c = operand(g, (m, n), dt)
                    return {"c": c}, torch.addmm(c, torch.zeros(m, 0, dtype=dt, device=DEVICE),
                                                  torch.zeros(0, n, dtype=dt, device=DEVICE), beta=beta, alpha=1.3)
                yield f"addmm_k0-{m}x{n}-beta{beta}", t, addmm_k0
        for (n, k) in [(5, 7), (4096, 1104), (40, 11528), (1, 640)]:
            def mv(g, n=n, k=k, dt=dt):
                w, v = operand(g, (n, k), dt), operand(g, (k,), dt)
                return {"w": w, "v": v}, torch.mv(w, v)
            yield f"mv-{n}x{k}", t, mv

            def vecmat(g, n=n, k=k, dt=dt):
                v, w = operand(g, (k,), dt), operand(g, (k, n), dt)
                return {"v": v, "w": w}, torch.matmul(v, w)
            yield f"vecmat-{n}x{k}", t, vecmat

            def dot(g, k=k, dt=dt):
                u, v = operand(g, (k,), dt), operand(g, (k,), dt)
                return {"u": u, "v": v}, torch.dot(u, v)
            yield f"dot-{k}", t, dot


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "t"), exist_ok=True)
    log = os.environ.get("CUBLASLT_LOG_FILE")
    cublas_log = os.environ.get("CUBLAS_LOGDEST_DBG")
    entries = []
    for i, (name, t, fn) in enumerate(calls()):
        torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
        g = np.random.default_rng(1000 + i)
        entry = {"id": i, "name": name, "type": t}
        try:
            inputs, _ = None, None
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            before, cublas_before = log_size(log), log_size(cublas_log)
            inputs, result = fn(g)
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            entry["log"] = [before, log_size(log)]
            entry["cublas_log"] = [cublas_before, log_size(cublas_log)]
            entry["operands_sha256"] = {k: hashlib.sha256(bits(v).tobytes()).hexdigest() for k, v in inputs.items()}
            entry["shapes"] = {k: list(v.shape) for k, v in inputs.items()}
            entry["shapes"]["result"] = list(result.shape)
            np.save(os.path.join(out, "t", f"{i}.npy"), bits(result))
            entry["strides"] = list(result.stride())
        except Exception as e:
            entry["refused"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        entries.append(entry)
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        smi = "no nvidia-smi"
    info = {"torch": torch.__version__, "torch_cuda": torch.version.cuda, "gpu_driver": smi,
            "gpu": torch.cuda.get_device_name() if DEVICE == "cuda" else "none",
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count if DEVICE == "cuda" else 0,
            "loaded_libraries": sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcublas" in l}),
            "calls": entries}
    json.dump(info, open(os.path.join(out, "explore.json"), "w"), indent=1)
    print(f"{len(entries)} calls, {sum('refused' in e for e in entries)} refused")


if __name__ == "__main__":
    main()
