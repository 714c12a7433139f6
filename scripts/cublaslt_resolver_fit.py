#!/usr/bin/env python3
"""Fits the resolver of a cuBLASLt profile: which configuration the library's heuristic picks for a call,
as a decision tree per operand-type pair, from recordings of the heuristic itself, and holds it against
queries the fit never saw.

Inputs: heuristic.csv files written by `mmaemu record --cublaslt PLAN` for the plans
fixtures/cublaslt-h200/plan-heuristic*.yaml and fixtures/torch-h200/plan-heuristic.yaml (.csv or
.csv.xz), and recordings (recording.json: each call's first heuristic answer, at any beta). Rows of groups ending in "held-out" or "test" are held back;
the others (the grids, the random training shapes) are fitted. Only beta = 0 rows are used (the
heuristic's answer never depends on beta: fit.md).

What is predicted is the part of the configuration that decides the bits (the "class"): algorithm,
split-K, reduction scheme, and for the kernels whose rules read them the stage depth (21, 55, and every
algorithm the model has no rules for) and the custom option (55 and those). Each class carries the
full configuration seen most often with it in the training rows, which `mmaemu resolve` prints.

The features are functions of M, N, K and the call's options, listed by name in FEATURES; the C++
resolver (harness/cublaslt/lt_resolver.cpp) computes the same list and refuses a data file whose list
differs. Thresholds compare the feature rounded to float32, as scikit-learn does.

Writes RESOLVER.json, the agreement table (markdown, stdout), every disagreement (DISAGREE.csv), and
CHECK.csv: held-out queries with the fit's answer, which the C++ resolver must reproduce (a unit test).

    python3 scripts/cublaslt_resolver_fit.py --out DIR CSV...   (needs numpy, pandas, scikit-learn)
"""
import argparse
import json
import math
import os

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

MODELLED_PLAIN = {"20", "62", "66"}  # algorithm, split-K and reduction decide their bits
TILES = [(64, 8), (64, 16), (64, 32), (64, 64), (128, 64), (64, 128), (128, 128), (256, 128), (128, 256)]
SMS = 132
FEATURES = (["m", "n", "k", "m*n", "m*n*k", "k*k/(m*n)"]
            + [f"{w}_{tm}x{tn}" for tm, tn in TILES for w in ("tiles", "waves", "last_wave")]
            + [f"{v}%{g}" for v in ("m", "n", "k") for g in (2, 4, 8, 16)]
            + ["d_is_fp32", "workspace_32mib", "layout", "fast_accum"])
LAYOUT = {"TN": 0, "NN": 1, "NT": 2}
WORKSPACES = {0: 1, 33554432: 1, 1048576: 0}  # 0: the recording session's 32 MiB


def features(x):
    M, N, K = (x[c].to_numpy(dtype=np.float64) for c in ("m", "n", "k"))
    f = [M, N, K, M * N, M * N * K, K * K / (M * N)]
    for tm, tn in TILES:
        t = np.ceil(M / tm) * np.ceil(N / tn)
        f += [t, np.ceil(t / SMS), t / SMS - np.floor(t / SMS)]
    for v in (M, N, K):
        f += [np.fmod(v, g) for g in (2, 4, 8, 16)]
    f += [(x["d"] == "fp32").to_numpy(dtype=np.float64), x["max_workspace"].map(WORKSPACES).to_numpy(dtype=np.float64),
          x["layout"].map(LAYOUT).to_numpy(dtype=np.float64), x["fast_accum"].astype(int).to_numpy(dtype=np.float64)]
    out = np.stack(f, 1)
    assert out.shape[1] == len(FEATURES)
    return out


def bit_class(r):
    if r["refused"]:
        return "refused"
    parts = [r["algo"], r["split_k"], r["reduction"]]
    if r["algo"] not in MODELLED_PLAIN:
        parts.append(r["stages_name"])
    if r["algo"] not in MODELLED_PLAIN and r["algo"] != "21":
        parts.append(r["custom"])
    return "/".join(parts)


FULL = ["algo", "tile", "stages", "split_k", "reduction", "swizzle", "custom", "inner_shape", "cluster",
        "tile_name", "stages_name", "refused"]


def config_json(r):
    if r["refused"]:
        return {"refused": r["refused"]}
    ints = {k: int(r[k]) for k in ("tile", "stages", "split_k", "reduction", "swizzle", "custom", "inner_shape", "cluster")}
    return {"algo_id": int(r["algo"]), **ints, "tile_name": r["tile_name"], "stages_name": r["stages_name"]}


def recording_rows(file):
    """A recording's calls as heuristic.csv rows: the heuristic's first answer, or its refusal."""
    rows = []
    for c in json.load(open(file))["calls"]:
        call = c["call"]
        if not c["heuristic"] and "heuristic_rejected" not in c:
            continue
        h = c["heuristic"][0] if c["heuristic"] else {}
        rows.append({"group": "recording:" + c["group"], "a": call["a"], "b": call["b"], "d": call["d"],
                     "compute": call["compute"], "layout": call.get("layout", "TN"),
                     "max_workspace": str(call.get("max_workspace", 0)), "m": str(call["m"]), "n": str(call["n"]),
                     "k": str(call["k"]), "fast_accum": "1" if call.get("fast_accum") else "0", "alpha": "1",
                     "beta": "0",  # the heuristic's answer does not depend on beta (fit.md)
                     "refused": c.get("heuristic_rejected", "") if not h else "",
                     **{k: str(h.get(v, "")) for k, v in (("algo", "algo_id"), ("tile", "tile"), ("stages", "stages"),
                                                          ("split_k", "split_k"), ("reduction", "reduction"),
                                                          ("swizzle", "swizzle"), ("custom", "custom"),
                                                          ("inner_shape", "inner_shape"), ("cluster", "cluster"),
                                                          ("tile_name", "tile_name"), ("stages_name", "stages_name"))}})
    return pd.DataFrame(rows, dtype=str)


def load(files):
    frames = [recording_rows(f) if f.endswith(".json") else pd.read_csv(f, keep_default_na=False, dtype=str)
              for f in files]
    d = pd.concat(frames, ignore_index=True)
    d = d[d["beta"] == "0"].copy()
    for c in ("m", "n", "k", "max_workspace"):
        d[c] = d[c].astype(int)
    d = d[d["max_workspace"].isin(WORKSPACES.keys())].copy()  # the limits the resolver answers for
    d["held_out"] = d["group"].str.endswith("held-out") | d["group"].str.endswith("test")
    d["cls"] = d.apply(bit_class, axis=1)
    d["full"] = d[FULL].agg("|".join, axis=1)
    return d


def export(clf, classes, train):
    t = clf.tree_
    leaf_class = [int(np.argmax(v)) if t.children_left[i] < 0 else -1 for i, v in enumerate(t.value[:, 0, :])]
    # each class: its most frequent full configuration among the training rows
    table = []
    for cls in clf.classes_:
        rows = train[train["cls"] == cls]
        table.append(config_json(rows.loc[rows["full"] == rows["full"].value_counts().idxmax()].iloc[0]))
    return {"classes": table, "feature": [int(v) if v >= 0 else -1 for v in t.feature],
            "threshold": [float(repr_float(v)) for v in t.threshold],
            "left": [int(v) for v in t.children_left], "right": [int(v) for v in t.children_right], "leaf_class": leaf_class}


def repr_float(v):
    return float(v) if v != -2.0 else -2.0


def write_semicolon_csv(frame, file):
    """';'-separated and unquoted: the last column is JSON (commas and quotes, never ';')."""
    with open(file, "w") as f:
        f.write(";".join(frame.columns) + "\n")
        for row in frame.itertuples(index=False):
            f.write(";".join(str(v) for v in row) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    d = load(a.csv)
    models, rows, disagree, checks = [], [], [], []
    for (ta, tb), g in d.groupby(["a", "b"]):
        train, test = g[~g["held_out"]], g[g["held_out"]]
        clf = DecisionTreeClassifier(random_state=0).fit(features(train), train["cls"])
        m = export(clf, None, train)
        m.update({"a": ta, "b": tb, "compute": g["compute"].iloc[0]})
        models.append(m)
        if test.empty:  # a pair only the recordings hold (e5m2 x e5m2: refused): fitted, nothing held out
            continue
        pred = clf.predict(features(test))
        ok = pred == test["cls"].to_numpy()
        for key, sub in test.assign(ok=ok, pred=pred).groupby(["d", "layout", "max_workspace", "fast_accum"]):
            rows.append((f"{ta}x{tb}->{key[0]}" + (" fast" if key[3] == "1" else ""), key[1],
                         "32 MiB" if key[2] in (0, 33554432) else f"{key[2] // 1048576} MiB", len(sub), int(sub["ok"].sum())))
        bad = test.assign(pred=pred)[~ok]
        disagree.append(bad[["a", "b", "d", "layout", "max_workspace", "fast_accum", "m", "n", "k", "cls", "pred"]])
        sample = test.assign(pred=pred).sample(n=min(300, len(test)), random_state=1)
        # the fit's answer as the resolver file states it: the class's configuration, or its refusal
        answer = {cls: m["classes"][i] for i, cls in enumerate(clf.classes_)}
        sample["resolver"] = [json.dumps(answer[p], sort_keys=True, separators=(",", ":")) for p in sample["pred"]]
        checks.append(sample[["a", "b", "d", "layout", "max_workspace", "fast_accum", "m", "n", "k", "resolver"]])
    os.makedirs(a.out, exist_ok=True)
    for m in models:
        assert all(math.isfinite(t) for t in m["threshold"]), "a threshold is not finite"
    doc = {"schema": "mmaemu-cublaslt-resolver/1", "features": FEATURES, "sm_count": SMS,
           "fitted_from": [os.path.basename(os.path.dirname(os.path.abspath(f))) + "/" + os.path.basename(f) for f in a.csv],
           "workspaces": [33554432, 1048576], "models": models}
    tmp = os.path.join(a.out, "resolver.json.tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    os.replace(tmp, os.path.join(a.out, "resolver.json"))
    pd.concat(disagree).rename(columns={"cls": "heuristic", "pred": "resolver"}).to_csv(
        os.path.join(a.out, "disagreements.csv"), index=False)
    write_semicolon_csv(pd.concat(checks), os.path.join(a.out, "resolver-check.csv"))
    print("| types | layout | workspace limit | held-out queries | agree (bit-deciding configuration) |")
    print("|---|---|---|--:|--:|")
    tot = [0, 0]
    for types, layout, ws, n, ok in sorted(rows):
        print(f"| {types} | {layout} | {ws} | {n} | {100 * ok / n:.1f}% |")
        tot = [tot[0] + n, tot[1] + ok]
    print(f"| all | | | {tot[0]} | {100 * tot[1] / tot[0]:.1f}% |")
    nodes = sum(len(m["feature"]) for m in models)
    print(f"\n{len(d[~d['held_out']])} answers fitted, {tot[0]} held out; {len(models)} trees, {nodes} nodes; "
          f"{sum(len(m['classes']) for m in models)} classes")


if __name__ == "__main__":
    main()
