# Exploration: which library paths torch 2.11 takes for matmul/addmm/_scaled_mm on this GPU, with
# cuBLASLt's own log (CUBLASLT_LOG_LEVEL) naming the algorithm of each call, and torch's library versions.
import os, sys, json, glob, ctypes, time
import torch
out = sys.argv[1]
info = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0)}
try:
    info["cublas_version"] = torch._C._cuda_getCompiledVersion()
except Exception as e:
    info["cublas_version"] = str(e)
libs = sorted(set(glob.glob(os.path.join(os.path.dirname(torch.__file__), "..", "nvidia", "*", "lib", "*cublas*"))))
info["wheel_libs"] = [os.path.realpath(p) for p in libs]
maps = open("/proc/self/maps").read()
torch.zeros(1, device="cuda") @ torch.zeros(1, device="cuda").T if False else None
a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
(a @ a).sum().item()
maps = open("/proc/self/maps").read()
info["loaded_cublas"] = sorted({l.split()[-1] for l in maps.splitlines() if "cublas" in l})
info["prefer_lt"] = os.environ.get("TORCH_BLAS_PREFER_CUBLASLT")
json.dump(info, open(os.path.join(out, "torch-info.json"), "w"), indent=1)
print(json.dumps(info, indent=1))

def mark(msg):
    print(f"@@ {msg}", flush=True)
    sys.stdout.flush()

cases = []
for dt in (torch.bfloat16, torch.float16, torch.float32):
    for (M, N, K) in ((1, 4096, 4096), (16, 4096, 4096), (128, 128, 128), (1000, 1000, 1000), (4096, 4096, 4096), (64, 64, 16384)):
        cases.append(("matmul", dt, M, N, K))
        cases.append(("addmm", dt, M, N, K))
torch.backends.cuda.matmul.allow_tf32 = False
for c in cases:
    op, dt, M, N, K = c
    A = torch.randn(M, K, device="cuda", dtype=dt)
    B = torch.randn(K, N, device="cuda", dtype=dt)
    C = torch.randn(M, N, device="cuda", dtype=dt)
    mark(f"{op} {dt} {M}x{N}x{K}")
    if op == "matmul":
        D = A @ B
    else:
        D = torch.addmm(C, A, B, beta=0.75, alpha=-1.25)
    torch.cuda.synchronize()
torch.backends.cuda.matmul.allow_tf32 = True
for (M, N, K) in ((16, 4096, 4096), (4096, 4096, 4096)):
    A = torch.randn(M, K, device="cuda"); B = torch.randn(K, N, device="cuda")
    mark(f"matmul tf32 {M}x{N}x{K}")
    D = A @ B; torch.cuda.synchronize()
for (M, N, K) in ((16, 4096, 4096), (128, 128, 128), (4096, 4096, 4096)):
    for fast in (False, True):
        for outdt in (torch.bfloat16, torch.float32):
            A = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
            B = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn).T
            sa = torch.tensor(0.5, device="cuda"); sb = torch.tensor(2.0, device="cuda")
            mark(f"_scaled_mm e4m3 fast={fast} out={outdt} {M}x{N}x{K}")
            try:
                D = torch._scaled_mm(A, B, scale_a=sa, scale_b=sb, out_dtype=outdt, use_fast_accum=fast)
                torch.cuda.synchronize()
            except Exception as e:
                print("error", e)
mark("done")
