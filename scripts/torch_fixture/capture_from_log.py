#!/usr/bin/env python3
"""Writes a capture (mmaemu-capture/1, harness/cublaslt/lt_capture.hpp) from a run of PyTorch calls on a GPU
and cuBLASLt's log of it: for each call, the call as the library sees it (described by mmaemu's API from
torch's op, shapes and views) and the configuration the log names for it (algoId, tile, stages, split-K,
reduction scheme, swizzle, custom option).

    python3 capture_from_log.py DIR --out FILE.jsonl [--gpu NAME] [--sm-count 132] [--driver D] [--library-version 130100]
                                [--source TEXT]

DIR: what fresh.py calls wrote (calls.json: each call's op, type, m, n, k, batch and its byte range in
lt-log.txt; lt-log.txt or lt-log.txt.xz). Each call's description is checked against its log line (A's
and D's rows and columns, the layout): a call whose line disagrees, or that has none (torch called no
library), is left out and counted. The capture is written whole or not at all (a temporary file renamed).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fresh_replay import read_maybe_xz  # noqa: E402

from mmaemu._cublaslt_log import config_of, matmul_line, shape_mismatch  # noqa: E402

import mmaemu  # noqa: E402

D_TYPE = {"bf16": "bf16", "fp16": "fp16", "fp32": "fp32", "tf32": "fp32", "e4m3": "bf16"}


def library_call(c):
    """The call as mmaemu's API describes what torch hands cuBLAS(Lt) (fresh_replay.py's sampled(), whole)."""
    op, t, bt = c["op"], c["type"], c["batch"]
    kw = dict(a_type=t, b_type=t, d_type=D_TYPE[t], batch=bt if op in ("bmm", "baddbmm", "matmul3d", "matmul4d") else 1)
    torch_op = {"matmul": "matmul", "addmm": "addmm", "addmm_bias": "addmm", "linear": "linear", "linear_bias": "linear",
                "bmm": "matmul", "matmul3d": "matmul", "baddbmm": "addmm", "matmul4d": "matmul", "scaled_mm": "scaled_mm"}[op]
    if op in ("addmm", "baddbmm", "addmm_bias", "linear_bias"):
        kw["beta"] = 1.0
    if op in ("addmm_bias", "linear_bias"):
        kw["bias"] = True
    if op in ("addmm_bias", "matmul4d"):
        kw["mat2_transposed"] = True
    if op == "scaled_mm":
        kw.update(scale_a=0.5, scale_b=2.0 ** -3)
    r = mmaemu.resolve(c["m"], c["n"], c["k"], torch_op=torch_op, **kw)
    return r["call"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpu")
    ap.add_argument("--sm-count", type=int)
    ap.add_argument("--driver", default="")
    ap.add_argument("--library-version", type=int, default=130100)
    ap.add_argument("--source", help="where the run is kept, for the header (default: DIR's name)")
    a = ap.parse_args()
    d = json.load(open(os.path.join(a.dir, "calls.json")))
    lt = read_maybe_xz(os.path.join(a.dir, "lt-log.txt"))
    header = {"schema": "mmaemu-capture/1", "library": {"name": "cublasLt", "version": a.library_version},
              "gpu": {"name": a.gpu or d.get("gpu", ""), "sm_count": a.sm_count or d.get("sm_count", 0)},
              "torch": d.get("torch", ""),
              "source": f"scripts/torch_fixture/capture_from_log.py from {a.source or os.path.basename(os.path.abspath(a.dir))} "
                        f"(seed {d.get('seed')}): each call's configuration as cuBLASLt's log names it"}
    if a.driver:
        header["gpu"]["driver"] = a.driver
    entries, conflicting, skipped = {}, set(), {}
    for c in d["calls"]:
        if "refused" in c or not c.get("log"):
            skipped["torch refused or no log"] = skipped.get("torch refused or no log", 0) + 1
            continue
        line = matmul_line(lt[c["log"][0]:c["log"][1]].decode(errors="replace"))
        if line is None:
            skipped["no library call"] = skipped.get("no library call", 0) + 1
            continue
        try:
            call = library_call(c)
        except mmaemu.InputError as e:
            skipped[f"not described: {str(e)[:60]}"] = skipped.get(f"not described: {str(e)[:60]}", 0) + 1
            continue
        if shape_mismatch(line, call):
            skipped["log line disagrees"] = skipped.get("log line disagrees", 0) + 1
            continue
        key, config = json.dumps(call, sort_keys=True), config_of(line)
        if key in conflicting:
            continue
        if key in entries and entries[key]["config"] != config:  # run two ways: its replay would guess
            del entries[key]
            conflicting.add(key)
            skipped["one call run with two configurations"] = skipped.get("one call run with two configurations", 0) + 1
            continue
        entries.setdefault(key, {"op": c["op"], "call": call, "config": config})
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        f.write("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries.values()))
    os.replace(tmp, a.out)
    print(f"{a.out}: {len(entries)} calls captured; left out: {skipped or 'none'}")


if __name__ == "__main__":
    main()
