#!/usr/bin/env python3
"""Reads the summation tree of a cuBLASLt kernel off its pair-probe runs (generators/families_probe.cpp).

In a pair probe, output (m, n) sums K products equal to 1 except +X at k = p_m and -X at k = q_n
(X = 2^40): D(m, n) = K minus the number of products under the node of the summation tree where p_m and
q_n meet. For every pair-probe run of a recording this prints that node size against (p, q), and checks
it against candidate orders (a serial chain over K; consecutive chunks of c products summed serially,
then the chunks' partials serially), naming the first that explains every output, or "none".

    python3 scripts/cublaslt_pair_probe.py RECORDING_DIR PLAN.yaml MMAEMU [--group G] [--dump N]

The operands are regenerated from the recording's seeds (`mmaemu record --cublaslt PLAN --inputs-only
--call I`); needs numpy.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

BITS = {"bf16": (np.uint16, 16), "fp16": (np.uint16, None), "fp32": (np.uint32, 0)}


def to_float(bits, fmt):
    if fmt == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32)
    if fmt == "fp16":
        return bits.view(np.float16).astype(np.float32)
    return bits.view(np.float32)


def operands(mmaemu, plan, call_id, work):
    out = os.path.join(work, str(call_id))
    if not os.path.isdir(out):
        subprocess.run([mmaemu, "record", "--cublaslt", plan, "--inputs-only", "--call", str(call_id), "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
    return np.load(os.path.join(out, "ops", f"{call_id}-a.npy")), np.load(os.path.join(out, "ops", f"{call_id}-b.npy"))


def big_positions(x, axis):
    mag = np.abs(to_float(x, "bf16") if x.dtype == np.uint16 else x.view(np.float32))
    return np.argmax(mag, axis=axis)


def node_sizes(rec_dir, call, run, mmaemu, plan, work):
    c = call["call"]
    a, b = operands(mmaemu, plan, call["id"], work)
    p = big_positions(a, 1)  # per row m of A
    q = big_positions(b, 0)  # per column n of B
    d = to_float(np.load(os.path.join(rec_dir, run["d"])), c["d"])
    K = c["k"]
    P, Q = np.meshgrid(p, q, indexing="ij")
    size = K - d.astype(np.float64)
    valid = P != Q
    return P[valid], Q[valid], size[valid]


def serial(K, c):
    """Chunks of c products, each a chain from 0, the partials chained in order: the node of (p, q)."""
    def node(p, q):
        hi = np.maximum(p, q)
        same = p // c == q // c
        return np.where(same, hi - (hi // c) * c + 1, np.minimum((hi // c + 1) * c, K))
    return node


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("recording")
    ap.add_argument("plan")
    ap.add_argument("mmaemu")
    ap.add_argument("--group", default="")
    ap.add_argument("--dump", type=int, default=0, help="print this many (p, q, node) rows per run")
    a = ap.parse_args()
    rec = json.load(open(os.path.join(a.recording, "recording.json")))
    work = tempfile.mkdtemp(prefix="pair-probe-")
    for call in rec["calls"]:
        c = call["call"]
        # D(m, n) reads the node only as alpha 1 and beta 0 give it, in fp32
        if (call["family"] != "pair_probe" or not call["group"].startswith(a.group) or c["d"] != "fp32" or
                c.get("alpha", 1.0) != 1.0 or c.get("beta", 0.0) != 0.0):
            continue
        for run in call["runs"]:
            if "d" not in run:
                continue
            cfg = run["config"]
            P, Q, S = node_sizes(a.recording, call, run, a.mmaemu, a.plan, work)
            K = c["k"]
            found = "none"
            for chunk in sorted({K} | {2 ** i for i in range(1, 15) if 2 ** i < K} | {8 * i for i in range(1, 65)}):
                if np.array_equal(serial(K, chunk)(P, Q), S):
                    found = f"chunks of {chunk}, chained" if chunk < K else "one serial chain"
                    break
            print(f'{call["id"]} {call["group"]} {c["a"]}->{c["d"]} {c["m"]}x{c["n"]}x{K} algo {cfg["algo_id"]} '
                  f'tile {cfg.get("tile_name")} stages {cfg.get("stages_name")} split {cfg["split_k"]} '
                  f'custom {cfg.get("custom")} red {cfg.get("reduction")}: {found}; node sizes {np.unique(S)[:12]}')
            if a.dump:
                order = np.lexsort((Q, P))
                for i in order[:: max(1, len(order) // a.dump)][: a.dump]:
                    print(f"    p {P[i]} q {Q[i]} node {S[i]:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
