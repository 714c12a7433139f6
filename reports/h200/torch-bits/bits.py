# torch.matmul / addmm / _scaled_mm on this GPU: operands and results as raw bits (.npy), one folder
# per call, with cuBLASLt's log (CUBLASLT_LOG_LEVEL=2) naming each call's configuration. For checking
# whether the library model, given torch's configuration, reproduces torch's bits.
import hashlib, json, os, sys
import numpy as np
import torch

out = sys.argv[1]
RAW = {torch.bfloat16: (torch.int16, np.uint16), torch.float16: (torch.int16, np.uint16),
       torch.float32: (torch.int32, np.uint32), torch.float8_e4m3fn: (torch.uint8, np.uint8)}


def raw(t):
    iv, nv = RAW[t.dtype]
    return t.contiguous().view(iv).cpu().numpy().view(nv)


def sha(t):
    return hashlib.sha256(raw(t).tobytes()).hexdigest()


def gen(shape, dtype, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g) * scale
    return x.to(dtype).cuda()


cases = []
SHAPES = [(1, 4096, 4096), (16, 4096, 4096), (128, 128, 128), (96, 80, 512), (64, 64, 4096), (16, 256, 8192),
          (200, 300, 1000)]
for name, dt, tf32 in (("bf16", torch.bfloat16, False), ("fp16", torch.float16, False), ("fp32", torch.float32, False),
                       ("tf32", torch.float32, True)):
    for op in ("matmul", "addmm"):
        for s in SHAPES:
            cases.append((op, name, dt, tf32, s))
index = []
seed = 1
for op, name, dt, tf32, (M, N, K) in cases:
    torch.backends.cuda.matmul.allow_tf32 = tf32
    A, B, C = gen((M, K), dt, seed), gen((K, N), dt, seed + 1), gen((M, N), dt, seed + 2)
    seed += 3
    tag = f"{len(index):03d}-{op}-{name}-{M}x{N}x{K}"
    print(f"@@ {tag}", flush=True)
    D = A @ B if op == "matmul" else torch.addmm(C, A, B, beta=0.75, alpha=-1.25)
    torch.cuda.synchronize()
    d = os.path.join(out, tag)
    os.makedirs(d)
    np.save(os.path.join(d, "d.npy"), raw(D))
    index.append({"dir": tag, "op": op, "type": name, "m": M, "n": N, "k": K, "seed": seed - 3,
                  "sha256": {"a": sha(A), "b": sha(B), "c": sha(C)},
                  "alpha": -1.25 if op == "addmm" else 1.0, "beta": 0.75 if op == "addmm" else 0.0})
torch.backends.cuda.matmul.allow_tf32 = False
for (M, N, K) in ((16, 1024, 1024), (128, 128, 128), (96, 80, 512), (64, 64, 4096), (200, 304, 1024)):
    for fast in (False, True):
        for outdt, oname in ((torch.bfloat16, "bf16"), (torch.float32, "fp32")):
            A = gen((M, K), torch.float32, seed).to(torch.float8_e4m3fn)
            Bt = gen((N, K), torch.float32, seed + 1).to(torch.float8_e4m3fn)
            seed += 2
            sa, sb = torch.tensor(0.5, device="cuda"), torch.tensor(2.0, device="cuda")
            tag = f"{len(index):03d}-scaled_mm-e4m3-{oname}-{'fast' if fast else 'promoted'}-{M}x{N}x{K}"
            print(f"@@ {tag}", flush=True)
            D = torch._scaled_mm(A, Bt.T, scale_a=sa, scale_b=sb, out_dtype=outdt, use_fast_accum=fast)
            torch.cuda.synchronize()
            d = os.path.join(out, tag)
            os.makedirs(d)
            np.save(os.path.join(d, "d.npy"), raw(D))
            index.append({"seed": seed - 2, "sha256": {"a": sha(A), "bt": sha(Bt)}, "dir": tag, "op": "_scaled_mm", "type": "e4m3", "out": oname, "fast_accum": fast, "m": M, "n": N,
                          "k": K, "scale_a": 0.5, "scale_b": 2.0})
json.dump({"torch": torch.__version__, "calls": index}, open(os.path.join(out, "index.json"), "w"), indent=1)
print("@@ done", flush=True)
