"""Markdown tables for findings.md from q1_results.json, q1_inplace.json, q2_results.json (run after them)."""
import collections
import json
import os

OUT = os.environ.get("MMAEMU_ANALYSIS_DIR", "/tmp/analysis")
q1 = json.load(open(f"{OUT}/q1_results.json"))
inp = {r["id"]: r for r in json.load(open(f"{OUT}/q1_inplace.json"))}


def cls(r):
    if "model" in r:
        return "no rules (algo " + r["config"].split()[0][4:] + ")"
    m = r["mismatches"]
    if r["id"] in inp and "mismatches" in inp[r["id"]]:
        return "INPLACE rule" if inp[r["id"]]["mismatches"]["I1 bias first, then round_D(D + p_s), slice order"] == 0 else "INPLACE: no fit"
    if m["b_model(C=bias,beta)"] == 0 and m["a_fma(alpha,acc,beta*bias)"] == 0:
        return "one rounding (a)=(b)"
    if m["b_model(C=bias,beta)"] == 0:
        return "(b) model's beta*C form"
    if m["c_round_D_then_add"] == 0:
        return "(c) round_D(round_D(acc)+bias)"
    return f"no fit ({m['b_model(C=bias,beta)']} bad under (b))"


t = collections.defaultdict(collections.Counter)
for r in q1:
    red = r["config"].split("red=")[1].split()[0]
    sk = r["config"].split("splitK=")[1].split()[0]
    kind = "unsplit" if sk in ("1",) else f"split red={red}"
    t[(r["op"], r["type"], r["epilogue"])][(kind, cls(r))] += 1
print("| op | type | path | (split, red) -> rule: calls |\n|---|---|---|---|")
for k, v in sorted(t.items()):
    print(f"| {k[0]} | {k[1]} | {k[2]} | " + "; ".join(f"{a} {b}: {n}" for (a, b), n in sorted(v.items())) + " |")
