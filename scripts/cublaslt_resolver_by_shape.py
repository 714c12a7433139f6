#!/usr/bin/env python3
"""The resolver's held-out agreement by operand family and by shape alignment (fit.md's "By shape"):
reads the held-out rows of the heuristic sweeps and the fit's disagreements.csv.xz.

    cd fixtures/cublaslt-h200/heuristic && python3 ../../../scripts/cublaslt_resolver_by_shape.py
"""
import pandas as pd

t = pd.concat([pd.read_csv(f, keep_default_na=False, dtype=str) for f in ["dense.csv.xz", "heuristic.csv.xz"]])
t = t[(t.beta == "0") & (t.group.str.endswith("test") | t.group.str.endswith("held-out"))]
dis = pd.read_csv("disagreements.csv.xz", keep_default_na=False, dtype=str)
for x in (t, dis):
    for c in "mnk":
        x[c] = x[c].astype(int)
    x["fam"] = x.a.map({"bf16": "16-bit", "fp16": "16-bit", "fp32": "fp32", "tf32": "tf32"}).fillna("FP8")
    x["al"] = (x.m % 8 == 0) & (x.n % 8 == 0) & (x.k % 8 == 0)
print("| operand types | shapes | held-out queries | agree |\n|---|---|--:|--:|")
for f in ["16-bit", "tf32", "fp32", "FP8"]:
    for al in (True, False):
        n = ((t.fam == f) & (t.al == al)).sum()
        bad = ((dis.fam == f) & (dis.al == al)).sum()
        print(f"| {f} | {'M, N, K multiples of 8' if al else 'others'} | {n} | {100 * (n - bad) / n:.1f}% |")
print(f"| all | | {len(t)} | {100 * (len(t) - len(dis)) / len(t):.1f}% |\n")
algo = lambda s: s.str.split("/").str[0]
same = (algo(dis.heuristic) == algo(dis.resolver)).mean()
print(f"Of the {len(dis)} disagreements, {100 * same:.0f}% name the right algorithm; the heuristic's algorithm in them: "
      + ", ".join(f"{k} ({v})" for k, v in algo(dis.heuristic).value_counts().head(8).items()) + ".")
