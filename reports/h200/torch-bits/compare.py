#!/usr/bin/env python3
"""Does the library model, given the configuration torch's call ran with, reproduce torch's bits?

Reads a run of bits.py (one folder per call with D, index.json with the operands' seeds and SHA-256, and
cuBLASLt's log naming each call's configuration, in call order), regenerates the operands with torch's
CPU generator (checked against the SHA-256), and computes each call with `mmaemu gemm --library
cublaslt-h200 --algo CONFIG.json` as the library saw it: torch's row-major D = A x B is the library's
column-major D^T = B^T x A^T, so mmaemu gets A' = B^T [N][K], B' = A^T [K][M], C' = C^T and gives D^T.
Prints one line per call and a summary table.

    python3 compare.py RUN_DIR MMAEMU [--backend host]
"""
import hashlib, json, os, re, subprocess, sys, tempfile
import numpy as np
import torch

run, mmaemu = sys.argv[1], sys.argv[2]
backend = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--backend" else "host"
DT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, "tf32": torch.float32,
      "e4m3": torch.float8_e4m3fn}
RAW = {torch.bfloat16: (torch.int16, np.uint16), torch.float16: (torch.int16, np.uint16),
       torch.float32: (torch.int32, np.uint32), torch.float8_e4m3fn: (torch.uint8, np.uint8)}


def raw(t):
    iv, nv = RAW[t.dtype]
    return t.contiguous().view(iv).numpy().view(nv)


def gen(shape, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g) * 1.0).to(dtype)


def config_of(line):
    algo = re.search(r"algo=\[([^\]]*)\]", line).group(1)
    get = lambda k, d="": (re.search(k + r"=(\S+)", algo).group(1) if re.search(k + r"=(\S+)", algo) else d)
    red = {"REDUCTION_SCHEME_COMPUTE_TYPE": 2, "REDUCTION_SCHEME_INPLACE": 1, "REDUCTION_SCHEME_OUTPUT_TYPE": 4}.get(
        get("reductionScheme"), 0)
    return {"algo_id": int(get("algoId")), "tile": 0, "tile_name": get("tile").replace("MATMUL_TILE_", ""), "stages": 0,
            "stages_name": get("stages").replace("MATMUL_STAGES_", ""), "split_k": int(get("numSplitsK", "1")),
            "reduction": red, "swizzle": int(get("ctaSwizzling", "0")), "custom": int(get("customOption", "0")),
            "inner_shape": 0, "cluster": 0}


def main():
    index = json.load(open(os.path.join(run, "calls", "index.json")))["calls"]
    lines = [l for l in open(os.path.join(run, "lt-log.txt")) if "Matmul]" in l]
    assert len(lines) == len(index), (len(lines), len(index))
    rows = []
    for call, line in zip(index, lines):
        cfg = config_of(line)
        M, N, K = call["m"], call["n"], call["k"]
        t = call["type"]
        if call["op"] == "_scaled_mm":
            A = gen((M, K), torch.float32, call["seed"]).to(torch.float8_e4m3fn)
            Bt = gen((N, K), torch.float32, call["seed"] + 1).to(torch.float8_e4m3fn)
            ok = hashlib.sha256(raw(A).tobytes()).hexdigest() == call["sha256"]["a"] and \
                 hashlib.sha256(raw(Bt).tobytes()).hexdigest() == call["sha256"]["bt"]
            a_lib, b_lib = raw(Bt), raw(A).T.copy()
            d_type, a_type = call["out"], "e4m3"
            C = np.zeros((N, M), dtype=np.uint16 if d_type == "bf16" else np.uint32)
            extra = ["--alpha", "1", "--beta", "0", "--scale-a", str(call["scale_b"]), "--scale-b", str(call["scale_a"])]
            if call["fast_accum"]:
                extra.append("--fast-accum")
        else:
            dt = DT[t]
            A, B, Cm = gen((M, K), dt, call["seed"]), gen((K, N), dt, call["seed"] + 1), gen((M, N), dt, call["seed"] + 2)
            ok = all(hashlib.sha256(raw(x).tobytes()).hexdigest() == call["sha256"][r] for r, x in (("a", A), ("b", B), ("c", Cm)))
            a_lib, b_lib = raw(B).T.copy(), raw(A).T.copy()
            C = raw(Cm).T.copy() if call["op"] == "addmm" else np.zeros((N, M), dtype=raw(A).dtype)
            a_type = "tf32" if t == "tf32" else t
            d_type = "fp32" if t == "tf32" else t
            extra = ["--alpha", str(call["alpha"]), "--beta", str(call["beta"])]
        D = np.load(os.path.join(run, "calls", call["dir"], "d.npy"))
        with tempfile.TemporaryDirectory() as tmp:
            for name, x in (("a", a_lib), ("b", b_lib), ("c", C)):
                np.save(os.path.join(tmp, name + ".npy"), x)
            json.dump(cfg, open(os.path.join(tmp, "cfg.json"), "w"))
            cmd = [mmaemu, "gemm", "--library", "cublaslt-h200", "--a-type", a_type, "--b-type", a_type, "--d-type", d_type,
                   "--a", f"{tmp}/a.npy", "--b", f"{tmp}/b.npy", "--c", f"{tmp}/c.npy", "--out", f"{tmp}/d.npy",
                   "--algo", f"{tmp}/cfg.json", "--backend", backend] + extra
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                verdict, differ = "refused: " + (r.stderr.strip().splitlines() or ["?"])[-1][:120], -1
            else:
                got = np.load(f"{tmp}/d.npy").T
                differ = int((got != D).sum())
                verdict = "equal" if differ == 0 else f"{differ} of {D.size} differ"
        rows.append((call["dir"], cfg, ok, verdict, differ, D.size))
        print(f"{call['dir']:48s} algo {cfg['algo_id']:2d} split-K {cfg['split_k']:3d} red {cfg['reduction']} "
              f"custom {cfg['custom']:3d} operands {'ok' if ok else 'SHA MISMATCH'}: {verdict}", flush=True)
    equal = sum(1 for r in rows if r[4] == 0)
    print(f"\n{equal} of {len(rows)} torch calls reproduced bit for bit by the library model given torch's configuration")


if __name__ == "__main__":
    main()
