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

Agreement is counted twice: by class, and by outcome: the library model's arithmetic for the call under the
predicted configuration against that under the heuristic's (ref::describe_plan through the Python
module's `arithmetic`, alpha 0.5 and beta 1 so that the epilogue's form counts; equal plans give equal
bits), or the same code where the model declines both. Two classes can compute the same bits for a
call (an algorithm whose rules equal another's there); the certainty is fitted on the outcome, which is
what a wrong answer would cost. The module is imported from MMAEMU_PYTHON (default build/python).

How sure an answer is: each leaf keeps its support (the training answers that reached it). On the
calibration set (held-back groups ending "test" or "calibration-held-out"), agreement is counted per support bin and
alignment class (M, N, K all multiples of 8 or not); an isotonic (non-decreasing in support) fit of it
is the certainty the resolver states for an answer from a leaf of that bin; a call whose answer was
recorded (PyTorch's calls, the recordings' calls) is answered with it, certainty 1. The check set (the
other held-back groups, never read while the certainty is fitted) reports what a gate at
GATE gives: the share answered and how many of those disagree with the heuristic.

Strided batched calls (torch.bmm, baddbmm, 3-D and 4-D matmul: rows with a batch above 1) get trees of
their own, fitted on the same features and the batch count (BATCHED_FEATURES), with their own certainty
(calibration: held-back groups ending "test"; check: groups ending "held-out", such as the configurations
cuBLAS logged for PyTorch's batched calls, fresh_replay.py batched-rows). They go into the resolver's
"batched" section (fitted from the files given with --batched); the C++ resolver answers a batched call
from them.

Writes RESOLVER.json, the agreement table (markdown, stdout), every disagreement (DISAGREE.csv), and
CHECK.csv: held-out queries with the fit's answer, which the C++ resolver must reproduce (a unit test).

    python3 scripts/cublaslt_resolver_fit.py --out DIR CSV... [--batched CSV...]   (needs numpy, pandas, scikit-learn)
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import pandas as pd
from sklearn.isotonic import IsotonicRegression
from sklearn.tree import DecisionTreeClassifier

MODELLED_PLAIN = {"20", "62", "66"}  # algorithm, split-K and reduction decide their bits
TILES = [(64, 8), (64, 16), (64, 32), (64, 64), (128, 64), (64, 128), (128, 128), (256, 128), (128, 256)]
SMS = 132
FEATURES = (["m", "n", "k", "m*n", "m*n*k", "k*k/(m*n)"]
            + [f"{w}_{tm}x{tn}" for tm, tn in TILES for w in ("tiles", "waves", "last_wave")]
            + [f"{v}%{g}" for v in ("m", "n", "k") for g in (2, 4, 8, 16)]
            + ["d_is_fp32", "workspace_32mib", "layout", "fast_accum"])
BATCHED_FEATURES = FEATURES + ["batch"]
LAYOUT = {"TN": 0, "NN": 1, "NT": 2}
WORKSPACES = {0: 1, 33554432: 1, 1048576: 0}  # 0: the recording session's 32 MiB
SUPPORT_EDGES = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]  # lower edges of the support bins
GATE = 0.99  # the certainty `--strict` and emulate(strict=True) require (harness/cublaslt/lt_resolver.hpp)


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


def batched_features(x):
    return np.concatenate([features(x), x[["batch"]].to_numpy(dtype=np.float64)], 1)


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


def load(files, batched=False):
    frames = [recording_rows(f) if f.endswith(".json") else pd.read_csv(f, keep_default_na=False, dtype=str)
              for f in files]
    d = pd.concat(frames, ignore_index=True)
    d = d[d["beta"] == "0"].copy()
    # Plain calls, or (batched=True) strided batched ones; bias-epilogue answers (column epilogue, newer
    # sweeps) are the call kinds' own (harness/api/call_kinds.hpp).
    if "batch" not in d:
        d["batch"] = ""
    if "epilogue" not in d:
        d["epilogue"] = ""
    d["batch"], d["epilogue"] = d["batch"].fillna(""), d["epilogue"].fillna("")  # older files: plain calls
    d = d[d["epilogue"].isin(["", "none"])].copy()
    plain = d["batch"].isin(["", "1"])
    d = d[~plain if batched else plain].copy()
    d["batch"] = d["batch"].replace("", "1").astype(int)
    for c in ("m", "n", "k", "max_workspace"):
        d[c] = d[c].astype(int)
    d = d[d["max_workspace"].isin(WORKSPACES.keys())].copy()  # the limits the resolver answers for
    d["held_out"] = d["group"].str.endswith("held-out") | d["group"].str.endswith("test")
    # The held-back queries in two sets: one the certainty is fitted on (the dense sweeps' test shapes, or
    # a certainty sweep's calibration group), the other only reported (the first sweep's held-out shapes,
    # or a certainty sweep's check group).
    calibration = d["group"].str.endswith("test") | d["group"].str.endswith("calibration-held-out")
    d["set"] = np.where(calibration, "calibration", np.where(d["held_out"], "check", "train"))
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
    leaf_support = [int(t.n_node_samples[i]) if t.children_left[i] < 0 else 0 for i in range(t.node_count)]
    return {"classes": table, "feature": [int(v) if v >= 0 else -1 for v in t.feature],
            "threshold": [float(repr_float(v)) for v in t.threshold],
            "left": [int(v) for v in t.children_left], "right": [int(v) for v in t.children_right], "leaf_class": leaf_class,
            "leaf_support": leaf_support}


RECORDED_GROUPS = ("matmul", "addmm", "linear", "scaled_mm")  # torch-h200/heuristic: PyTorch's own calls


def recorded_key(r):
    """A call as the C++ resolver spells it (Resolver::recorded_key): D's type, layout, workspace limit in
    bytes (0: the session's 32 MiB), fast accumulation, M, N, K."""
    ws = 33554432 if int(r["max_workspace"]) == 0 else int(r["max_workspace"])
    return f'{r["d"]}|{r["layout"]}|{ws}|{int(r["fast_accum"])}|{int(r["m"])}|{int(r["n"])}|{int(r["k"])}'


def recorded_answers(train, classes):
    """The answers recorded for these very calls (PyTorch's calls and the recordings' calls, in the fit):
    key -> class index, so the resolver answers them with certainty 1."""
    rec = train[train["group"].str.startswith("recording:") | train["group"].isin(RECORDED_GROUPS)]
    index = {c: i for i, c in enumerate(classes)}
    out = {}
    for _, r in rec.iterrows():
        out.setdefault(recorded_key(r), index[r["cls"]])
    return [{"key": k, "class": v} for k, v in sorted(out.items())]


def aligned(x):
    return ((x["m"] % 8 == 0) & (x["n"] % 8 == 0) & (x["k"] % 8 == 0)).to_numpy()


def support_bin(support):
    return np.searchsorted(SUPPORT_EDGES, support, side="right") - 1


_OUTCOMES = {}


def outcome(r, config):
    """What the library model does for row r's call (alpha 0.5, beta 1) under a configuration (a class's JSON or
    a config_json): its arithmetic, the code it declines with, or the heuristic's refusal."""
    if "refused" in config:
        return "refused"
    cfg = json.dumps(config, sort_keys=True)
    key = (r["a"], r["b"], r["d"], r["fast_accum"], r["layout"], int(r["max_workspace"]), int(r["m"]), int(r["n"]),
           int(r["k"]), cfg)
    if key not in _OUTCOMES:
        sys.path.insert(0, os.environ.get("MMAEMU_PYTHON", "build/python"))
        from mmaemu import _mmaemu
        call = _mmaemu.LibraryCall("cublaslt-h200", r["a"], r["b"], r["d"], 0.5, 1.0, "", "", r["fast_accum"] == "1",
                                   r["layout"], int(r["max_workspace"]) or None, "", "", None)
        out = json.loads(_mmaemu.arithmetic(call, int(r["m"]), int(r["n"]), int(r["k"]), cfg))
        _OUTCOMES[key] = out.get("arithmetic") or "declined " + out["decline"]
    return _OUTCOMES[key]


def same_outcome(rows, pred, answer):
    """Per row: the predicted class's configuration gives the outcome the heuristic's own configuration gives."""
    return np.array([p == r["cls"] or outcome(r, answer[p]) == outcome(r, config_json(r))
                     for (_, r), p in zip(rows.iterrows(), pred)], dtype=bool)


def certainty_table(clf, cal, featurize, answer):
    """Per alignment class, the certainty of each support bin: agreement (same outcome) on the calibration queries,
    made non-decreasing in support (isotonic, weighted by the queries); a bin without queries takes
    the next lower bin's value (0 below the first with data)."""
    out = {"support_edges": SUPPORT_EDGES}
    X = featurize(cal)
    ok = same_outcome(cal, clf.predict(X), answer)
    bins = support_bin(clf.tree_.n_node_samples[clf.apply(X)])
    al = aligned(cal)
    for name, cls in (("aligned", True), ("unaligned", False)):
        queries = np.array([int(((bins == b) & (al == cls)).sum()) for b in range(len(SUPPORT_EDGES))])
        agree = np.array([int(((bins == b) & (al == cls) & ok).sum()) for b in range(len(SUPPORT_EDGES))])
        have = queries > 0
        fitted = np.zeros(len(SUPPORT_EDGES))
        if have.any():
            iso = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True)
            fitted[have] = iso.fit_transform(np.nonzero(have)[0], agree[have] / queries[have], sample_weight=queries[have])
            last = 0.0
            for b in range(len(SUPPORT_EDGES)):
                last = fitted[b] if have[b] else last
                fitted[b] = last
        out[name] = [round(float(v), 6) for v in fitted]
        out[name + "_queries"] = queries.tolist()
        out[name + "_agree"] = agree.tolist()
    return out


def certainty_of(table, support, is_aligned):
    b = support_bin(support)
    return np.where(is_aligned, np.array(table["aligned"])[b], np.array(table["unaligned"])[b])


def repr_float(v):
    return float(v) if v != -2.0 else -2.0


def write_semicolon_csv(frame, file):
    """';'-separated and unquoted: the last column is JSON (commas and quotes, never ';')."""
    with open(file, "w") as f:
        f.write(";".join(frame.columns) + "\n")
        for row in frame.itertuples(index=False):
            f.write(";".join(str(v) for v in row) + "\n")


CHECK_COLUMNS = ["a", "b", "d", "layout", "max_workspace", "fast_accum", "m", "n", "k"]


def fit(d, featurize):
    """One tree per operand-type pair on d's training rows: (models, agreement rows, disagreements, check
    samples, gate rows)."""
    models, rows, disagree, checks, gates = [], [], [], [], []
    batched = featurize is batched_features
    for (ta, tb), g in d.groupby(["a", "b"]):
        train, test = g[~g["held_out"]], g[g["held_out"]]
        if train.empty:
            print(f"{ta} x {tb}: only held-back answers, no tree", file=sys.stderr)
            continue
        clf = DecisionTreeClassifier(random_state=0).fit(featurize(train), train["cls"])
        m = export(clf, None, train)
        m.update({"a": ta, "b": tb, "compute": g["compute"].iloc[0]})
        m["recorded"] = [] if batched else recorded_answers(train, list(clf.classes_))
        # the fit's answer as the resolver file states it: the class's configuration, or its refusal
        answer = {cls: m["classes"][i] for i, cls in enumerate(clf.classes_)}
        cal, chk = g[g["set"] == "calibration"], g[g["set"] == "check"]
        if not cal.empty:
            m["certainty"] = certainty_table(clf, cal, featurize, answer)
        models.append(m)
        if not chk.empty and "certainty" in m:
            sure = certainty_of(m["certainty"], clf.tree_.n_node_samples[clf.apply(featurize(chk))], aligned(chk)) >= GATE
            ok = same_outcome(chk, clf.predict(featurize(chk)), answer)
            for key, idx in chk.assign(i=np.arange(len(chk))).groupby(["d", "fast_accum"])["i"]:
                i = idx.to_numpy()
                gates.append((f"{ta}x{tb}->{key[0]}" + (" fast" if key[1] == "1" else ""), len(i), int(ok[i].sum()),
                              int(sure[i].sum()), int((sure[i] & ok[i]).sum())))
        if test.empty:  # a pair only the recordings hold (e5m2 x e5m2: refused): fitted, nothing held out
            continue
        pred = clf.predict(featurize(test))
        ok = pred == test["cls"].to_numpy()
        same = same_outcome(test, pred, answer)
        for key, sub in test.assign(ok=ok, same=same, pred=pred).groupby(["d", "layout", "max_workspace", "fast_accum"]):
            rows.append((f"{ta}x{tb}->{key[0]}" + (" fast" if key[3] == "1" else ""), key[1],
                         "32 MiB" if key[2] in (0, 33554432) else f"{key[2] // 1048576} MiB", len(sub), int(sub["ok"].sum()),
                         int(sub["same"].sum())))
        extra = ["batch"] if batched else []
        bad = test.assign(pred=pred)[~ok]
        disagree.append(bad[["a", "b", "d", "layout", "max_workspace", "fast_accum", "m", "n", "k"] + extra + ["cls", "pred"]])
        sample = test.assign(pred=pred).sample(n=min(300, len(test)), random_state=1)
        sample["resolver"] = [json.dumps(answer[p], sort_keys=True, separators=(",", ":")) for p in sample["pred"]]
        checks.append(sample[CHECK_COLUMNS + extra + ["resolver"]])
    for m in models:
        assert all(math.isfinite(t) for t in m["threshold"]), "a threshold is not finite"
    return models, rows, disagree, checks, gates


def print_tables(rows, gates):
    print("| types | layout | workspace limit | held-out queries | agree (bit-deciding configuration) | same outcome |")
    print("|---|---|---|--:|--:|--:|")
    tot = [0, 0, 0]
    for types, layout, ws, n, ok, same in sorted(rows):
        print(f"| {types} | {layout} | {ws} | {n} | {100 * ok / n:.1f}% | {100 * same / n:.1f}% |")
        tot = [tot[0] + n, tot[1] + ok, tot[2] + same]
    print(f"| all | | | {tot[0]} | {100 * tot[1] / max(tot[0], 1):.1f}% | {100 * tot[2] / max(tot[0], 1):.1f}% |")
    print(f"\n## The certainty gate on the check set (held out, never read by the fit or its certainty)\n")
    print(f"| types | queries | same outcome | certain (>= {GATE}) | same outcome among certain | wrong among certain |")
    print("|---|--:|--:|--:|--:|--:|")
    tot = [0, 0, 0, 0]
    for types, n, ok, sure, sure_ok in sorted(gates):
        print(f"| {types} | {n} | {100 * ok / n:.1f}% | {100 * sure / n:.1f}% | "
              f"{100 * sure_ok / max(sure, 1):.2f}% | {sure - sure_ok} |")
        tot = [tot[0] + n, tot[1] + ok, tot[2] + sure, tot[3] + sure_ok]
    if tot[0]:
        print(f"| all | {tot[0]} | {100 * tot[1] / tot[0]:.1f}% | {100 * tot[2] / tot[0]:.1f}% | "
              f"{100 * tot[3] / max(tot[2], 1):.2f}% | {tot[2] - tot[3]} |")
    return tot[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--batched", nargs="*", default=[], help="the files the batched trees are fitted and checked on")
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    d = load(a.csv)
    models, rows, disagree, checks, gates = fit(d, features)
    db = load(a.batched, batched=True) if a.batched else pd.DataFrame()
    b_models, b_rows, b_disagree, b_checks, b_gates = fit(db, batched_features) if not db.empty else ([], [], [], [], [])
    os.makedirs(a.out, exist_ok=True)
    fitted_from = [os.path.basename(os.path.dirname(os.path.abspath(f))) + "/" + os.path.basename(f) for f in a.csv + a.batched]
    doc = {"schema": "mmaemu-cublaslt-resolver/2", "gate": GATE, "features": FEATURES, "sm_count": SMS,
           "fitted_from": fitted_from, "workspaces": [33554432, 1048576], "models": models}
    if b_models:
        doc["batched"] = {"features": BATCHED_FEATURES, "models": b_models}
    tmp = os.path.join(a.out, "resolver.json.tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    os.replace(tmp, os.path.join(a.out, "resolver.json"))
    pd.concat(disagree + b_disagree).rename(columns={"cls": "heuristic", "pred": "resolver"}).to_csv(
        os.path.join(a.out, "disagreements.csv"), index=False)
    write_semicolon_csv(pd.concat(checks), os.path.join(a.out, "resolver-check.csv"))
    if b_checks:
        write_semicolon_csv(pd.concat(b_checks), os.path.join(a.out, "resolver-check-batched.csv"))
    held = print_tables(rows, gates)
    nodes = sum(len(m["feature"]) for m in models)
    print(f"\n{len(d[~d['held_out']])} answers fitted, {held} held out; {len(models)} trees, {nodes} nodes; "
          f"{sum(len(m['classes']) for m in models)} classes")
    if b_models:
        print("\n## Strided batched calls: agreement on the held-back queries\n")
        b_held = print_tables(b_rows, b_gates)
        print(f"\n{len(db[~db['held_out']])} batched answers fitted, {b_held} checked; {len(b_models)} trees, "
              f"{sum(len(m['feature']) for m in b_models)} nodes")


if __name__ == "__main__":
    main()
