"""Q3: vector forms (mv, vecmat, dot): the cuBLAS function and cuBLASLt line each logged, and whether the
model reproduces them as the logged GEMM (M' = 1 for mv: D'[1, n] = v^T W^T; N' = 1 for vecmat:
D'[n, 1] = W^T v). Writes q3_results.json."""
import json

from common import *


def cfg_key(cfg):
    s = f"algo{cfg['algo_id']} tile={cfg['tile_name']} stages={cfg['stages_name']} splitK={cfg['split_k']}"
    return s + f" red={cfg['reduction']} custom={cfg['custom']}"


rows = []
for call, parsed in zip(CALLS, PARSED):
    op = op_of(call)
    if op not in ("mv", "vecmat", "dot"):
        continue
    t = call["type"]
    api = [x for x in parsed["cublas"] if "PointerMode" not in x["fn"]]
    lines = [l for l in parsed["lt"] if "config" in l]
    row = {"id": call["id"], "name": call["name"], "op": op, "type": t,
           "api": [(x["fn"], {k: v for k, v in x["params"].items() if k in ("trans", "transa", "transb", "m", "n", "k", "lda", "incx", "incy", "executionType", "resultType", "computeType")}) for x in api],
           "lt": [(l["fn"], l["computeDesc"].get("computeType"), f"A {l['Adesc']['rows']}x{l['Adesc']['cols']} B {l['Bdesc']['rows']}x{l['Bdesc']['cols']} D {l['Ddesc']['rows']}x{l['Ddesc']['cols']}", cfg_key(l["config"])) for l in lines]}
    o = operands(call)
    got = result(call)
    if lines:
        cfg = lines[0]["config"]
        if op == "mv":
            a, b = o["v"].reshape(1, -1), o["w"].T
        else:
            a, b = o["w"].T, o["v"].reshape(-1, 1)
        try:
            d = lib(a, b, None, t, cfg, layout="NN")
            row["model_mismatches"] = int((d.ravel() != got.ravel()).sum())
            row["outputs"] = int(got.size)
        except Exception as e:  # noqa: BLE001
            row["model"] = "no rules: " + str(e).split("(")[0].strip()
    else:
        row["model"] = "no cuBLASLt line (not a GEMM)"
    rows.append(row)
    print(row["id"], row["name"], t, [a[0] for a in row["api"]], row["api"][0][1] if row["api"] else "", "|",
          row["lt"], "|", row.get("model", f"model: {row.get('model_mismatches')}/{row.get('outputs')} mismatches"))
json.dump(rows, open(f"{OUT}/q3_results.json", "w"), indent=1)
