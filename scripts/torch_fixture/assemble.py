#!/usr/bin/env python3
"""Completes the PyTorch fixture from what run.py left on the device: one cuBLASLt recording
(schema mmaemu-cublaslt-recording/1, harness/cublaslt/lt_recording.hpp) whose runs are torch's calls.

For each call: the configuration torch's call ran with, read from cuBLASLt's log (CUBLASLT_LOG_LEVEL=2:
one "Matmul]" line per call, in call order; each line's operand shapes are checked against the call),
torch's D' = D^T as the run's D, or torch's refusal. The operands are not kept: the replay regenerates
them from (family, seed) and checks their SHA-256. Provenance: the inputs' command, torch's version, the
libraries it loaded, GPU and driver.

    python3 scripts/torch_fixture/assemble.py RUN_DIR fixtures/torch-h200 [--commit SHA]
"""
import hashlib
import json
import os
import re
import shutil
import sys

REDUCTION = {"REDUCTION_SCHEME_NONE": 0, "REDUCTION_SCHEME_INPLACE": 1, "REDUCTION_SCHEME_COMPUTE_TYPE": 2,
             "REDUCTION_SCHEME_OUTPUT_TYPE": 4}


def field(text, key, default=None):
    m = re.search(key + r"=([^ \]]+)", text)
    return m.group(1) if m else default


def config_of(line):
    """The algorithm configuration a log line names (the fields an LtAlgoConfig holds)."""
    algo = re.search(r"algo=\[([^\]]*)\]", line).group(1)
    return {"algo_id": int(field(algo, "algoId")), "tile": 0, "stages": 0,
            "split_k": int(field(algo, "numSplitsK", "1")),
            "reduction": REDUCTION[field(algo, "reductionScheme", "REDUCTION_SCHEME_NONE")],
            "swizzle": int(field(algo, "ctaSwizzling", "0")), "custom": int(field(algo, "customOption", "0")),
            "inner_shape": 0, "cluster": 0, "workspace": int(field(line, "workSpaceSizeInBytes", "0")),
            "tile_name": field(algo, "tile", "MATMUL_TILE_UNDEFINED").replace("MATMUL_TILE_", ""),
            "stages_name": field(algo, "stages", "MATMUL_STAGES_UNDEFINED").replace("MATMUL_STAGES_", "")}


def check_shape(line, call):
    """The log line's A and D descriptors against the call (library view): catches a misaligned pairing."""
    a = re.search(r"Adesc=\[[^\]]*rows=(\d+) cols=(\d+)", line).groups()
    d = re.search(r"Ddesc=\[[^\]]*rows=(\d+) cols=(\d+)", line).groups()
    M, N, K = call["m"], call["n"], call["k"]
    a_expected = (str(K), str(M)) if call.get("layout", "TN") == "TN" else (str(M), str(K))
    if a != a_expected or d != (str(M), str(N)):
        raise SystemExit(f"log line does not match call {M}x{N}x{K} {call.get('layout', 'TN')}: A {a}, D {d}")


def main():
    run, out = sys.argv[1], sys.argv[2]
    commit = sys.argv[sys.argv.index("--commit") + 1] if "--commit" in sys.argv else ""
    rec = json.load(open(os.path.join(run, "recording.json")))
    torch_info = json.load(open(os.path.join(run, "torch.json")))
    lines = [l for l in open(os.path.join(run, "lt-log.txt")) if "Matmul]" in l]
    ran = [e for e in torch_info["calls"] if "d" in e]
    if len(lines) != len(ran):
        raise SystemExit(f"{len(lines)} logged matmuls for {len(ran)} calls torch ran")
    by_id = {e["id"]: e for e in torch_info["calls"]}
    os.makedirs(os.path.join(out, "d"), exist_ok=True)
    line_of = dict(zip((e["id"] for e in ran), lines))
    for c in rec["calls"]:
        e = by_id[c["id"]]
        c["operands_stored"] = False
        if "refused" in e:
            c["heuristic_rejected"] = "torch: " + e["refused"]
            continue
        line = line_of[c["id"]]
        check_shape(line, c["call"])
        d_file = f"d/{c['id']}-0.npy"
        shutil.copyfile(os.path.join(run, e["d"]), os.path.join(out, d_file))
        sha = hashlib.sha256(open(os.path.join(out, d_file), "rb").read()).hexdigest()
        c["runs"] = [{"rank": 0, "config": config_of(line), "d": d_file, "d_sha256": sha}]
    prov = rec["provenance"]
    prov.update({"client": f"PyTorch {torch_info['torch']} (CUDA {torch_info['torch_cuda']})",
                 "client_libraries": " ".join(torch_info["loaded_libraries"]),
                 "gpu": torch_info["gpu"], "gpu_driver": torch_info["gpu_driver"], "sm_count": str(torch_info["sm_count"]),
                 "configurations": "cuBLASLt's log of each call (CUBLASLT_LOG_LEVEL=2)",
                 "command": "scripts/torch_fixture/run.py on " + prov.get("command", "")})
    prov.pop("inputs_only", None)
    if commit:
        prov["commit"] = commit
    with open(os.path.join(out, "recording.json.tmp"), "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
    os.replace(os.path.join(out, "recording.json.tmp"), os.path.join(out, "recording.json"))
    print(f"{len(rec['calls'])} calls: {len(ran)} ran, {len(rec['calls']) - len(ran)} refused by torch -> {out}")


if __name__ == "__main__":
    main()
