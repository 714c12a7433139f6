"""Q5: the algorithm ids in the logs, per op and type (the one cuBLASLt line each call ran: cublasLtMatmul
for torch's Lt path, cublasLt{TST,HSH,SSS}Matmul under cublasGemmEx / cublasSgemm / Sgemv / the strided
batched APIs), and which of them the model has rules for. Also a control: addmm_full (C a full matrix,
beta 1) replayed through the model. Writes q5_results.json."""
import collections
import json

from common import *

MODELLED = {20, 21, 23, 24, 43, 55, 62, 66}
per = collections.defaultdict(collections.Counter)
total = collections.Counter()
fn_count = collections.Counter()
lines_per_call = collections.Counter()
for call, parsed in zip(CALLS, PARSED):
    lines = [l for l in parsed["lt"] if "config" in l]
    lines_per_call[len(lines)] += 1
    for l in lines:
        fn_count[(l["fn"], bool(parsed["cublas"]))] += 1
        a = l["config"]["algo_id"]
        per[(op_of(call), call["type"])][a] += 1
        total[a] += 1
print("cuBLASLt lines per call:", dict(lines_per_call))
print("line function, with a cuBLAS API call:", dict(fn_count))
print("algorithm ids overall:", {a: (n, "model" if a in MODELLED else "NO RULES") for a, n in sorted(total.items())})
for k, v in sorted(per.items()):
    print(k, {a: n for a, n in sorted(v.items())}, "no rules:", sum(n for a, n in v.items() if a not in MODELLED), "/", sum(v.values()))

# control: addmm_full through the model (alpha 1, beta 1, C = input)
ctrl = []
for call, parsed in zip(CALLS, PARSED):
    if op_of(call) != "addmm_full":
        continue
    line = [l for l in parsed["lt"] if "config" in l][0]
    o = operands(call)
    t = call["type"]
    try:
        d = lib(o["w"], o["x"].T, o["c"].T, t, line["config"], alpha=1.0, beta=1.0)
        bad = int((d != result(call).T).sum())
    except Exception as e:  # noqa: BLE001
        bad = "no rules: " + str(e).split("(")[0].strip()
    ctrl.append({"id": call["id"], "name": call["name"], "type": t, "fn": line["fn"], "algo": line["config"]["algo_id"],
                 "split_k": line["config"]["split_k"], "reduction": line["config"]["reduction"], "mismatches": bad})
    print("addmm_full control", ctrl[-1])
json.dump({"per_op_type": {f"{k[0]} {k[1]}": dict(v) for k, v in per.items()}, "total": dict(total),
           "addmm_full_control": ctrl}, open(f"{OUT}/q5_results.json", "w"), indent=1)
