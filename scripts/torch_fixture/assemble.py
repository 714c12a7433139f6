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

# The log's reader is the package's (python/mmaemu/_cublaslt_log.py): the build's, or an installed one.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
from mmaemu._cublaslt_log import config_of, shape_mismatch  # noqa: E402


def check_shape(line, call):
    """The log line's A and D descriptors against the call (library view): catches a misaligned pairing."""
    why = shape_mismatch(line, call)
    if why:
        raise SystemExit(why)


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
