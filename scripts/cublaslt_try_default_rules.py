#!/usr/bin/env python3
"""Which kernels the library model does not name already follow its default rules? Splits a cuBLASLt
recording (e.g. of fixtures/cublaslt-h200/plan-algos.yaml) by the algorithm each call ran, relabels the
runs as algorithm -1 (the model's rules for the input type: those of 66, 21 and 20), and replays each part
through the library model (`mmaemu run`, suite kind cublaslt-replay). An algorithm whose every output
matches follows the default rules on those calls; the others need rules of their own.

    python3 scripts/cublaslt_try_default_rules.py RECORDING_DIR MMAEMU WORK_DIR
"""
import copy
import json
import os
import subprocess
import sys


def main():
    rec_dir, mmaemu, work = sys.argv[1:4]
    rec = json.load(open(os.path.join(rec_dir, "recording.json")))
    algos = sorted({c["runs"][0]["config"]["algo_id"] for c in rec["calls"] if c["runs"]})
    suites = []
    for a in algos:
        part = os.path.join(os.path.abspath(work), f"algo{a}")
        os.makedirs(part, exist_ok=True)
        if not os.path.exists(os.path.join(part, "d")):
            os.symlink(os.path.abspath(os.path.join(rec_dir, "d")), os.path.join(part, "d"))
        r = copy.deepcopy(rec)
        r["calls"] = [c for c in r["calls"] if c["runs"] and c["runs"][0]["config"]["algo_id"] == a]
        for c in r["calls"]:
            for run in c["runs"]:
                run["config"]["algo_id"] = -1
        json.dump(r, open(os.path.join(part, "recording.json"), "w"))
        suites.append(f"  - name: algo{a}\n    kind: cublaslt-replay\n    labels: [T2, cpu]\n    recording: {part}\n"
                      "    engine: host\n")
    tier = os.path.join(work, "default-rules.yaml")
    open(tier, "w").write("tier: T2\ndescription: kernels replayed with the default rules\nsuites:\n" + "".join(suites))
    sys.exit(subprocess.run([mmaemu, "run", tier, "--report-dir", os.path.join(work, "report")]).returncode)


if __name__ == "__main__":
    main()
