#!/usr/bin/env python3
"""Measures the bias call kind's rule on the heuristic's own answers and writes it into call-kinds.json.

    python3 scripts/cublaslt_call_kinds.py KINDS_CSV CALL_KINDS_JSON --source TEXT

KINDS_CSV: heuristic.csv written by `mmaemu record --cublaslt fixtures/cublaslt-h200/plan-heuristic-kinds.yaml`
(.csv or .csv.xz): for every shape of the groups `bias` and `bias-test`, the heuristic's answer for the
same call with and without CUBLASLT_EPILOGUE_BIAS. The rule (harness/api/call_kinds.hpp) answers a bias
call with the plain call's configuration, except for M = 1 (the library's M: a single output feature),
where the heuristic picks its GEMV kernel. Counted per operand type, over the shapes with M > 1: how many
bias answers have the plain answer's bit-deciding configuration (scripts/cublaslt_resolver_fit.py's
classes); for M = 1, how many name the GEMV kernel (algorithm 13; kind bias-single-output). The two
entries of CALL_KINDS_JSON are replaced (its other kinds kept), with TEXT as their source.
"""
import argparse
import collections
import json
import os
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cublaslt_resolver_fit import bit_class  # noqa: E402

KEY = ["a", "d", "layout", "max_workspace", "m", "n", "k", "fast_accum"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("call_kinds")
    p.add_argument("--source", required=True)
    args = p.parse_args()
    d = pd.read_csv(args.csv, dtype=str, keep_default_na=False)
    d = d[d["group"].isin(["bias", "bias-test"])].copy()
    d["cls"] = d.apply(bit_class, axis=1)
    pairs = d.pivot_table(index=KEY, columns="epilogue", values="cls", aggfunc="first").reset_index()
    pairs = pairs.dropna(subset=["bias", "none"])
    single = pairs["m"].astype(int) == 1
    counts = {}
    for t, g in pairs[~single].groupby("a"):
        counts[t] = {"calls": len(g), "same_arithmetic": int((g["bias"] == g["none"]).sum())}
        print(f"bias {t}, M > 1: {counts[t]['same_arithmetic']} of {counts[t]['calls']} answers as without the epilogue")
    algos = collections.Counter(c.split("/")[0] for c in pairs[single]["bias"])
    print(f"M = 1: {int(single.sum())} bias answers; algorithms: {dict(algos)}")
    gemv = {t: {"calls": len(g), "same_arithmetic": int((g["bias"].str.split("/").str[0] == "13").sum())}
            for t, g in pairs[single].groupby("a")}
    doc = json.load(open(args.call_kinds))
    doc["kinds"]["bias"] = counts
    doc["kinds"]["bias-single-output"] = gemv
    doc.setdefault("sources", {})["bias-single-output"] = args.source
    doc["rules"]["bias-single-output"] = "M = 1: the GEMV kernel (algorithm 13)"
    doc.setdefault("sources", {})["bias"] = args.source
    doc["rules"]["bias"] = "the resolved configuration of the call without the epilogue"
    tmp = args.call_kinds + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, args.call_kinds)


if __name__ == "__main__":
    main()
