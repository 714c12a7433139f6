"""Q2: batched products. The API and cuBLASLt line each call logged (batch count, strides, configuration),
each batch's torch result against the model's single GEMM of that batch with the logged configuration,
and the configuration against the non-batched calls of the same library shape. Writes q2_results.json."""
import collections
import json

from common import *

OPS = ("bmm", "bmm_t", "baddbmm", "matmul4d", "matmul4d_t", "matmul_bcast", "matmul_bcast_b")
SCAL = {"baddbmm": (0.125, 0.5)}


def cfg_key(cfg):
    s = f"algo{cfg['algo_id']} tile={cfg['tile_name']} stages={cfg['stages_name']} splitK={cfg['split_k']}"
    return s + f" red={cfg['reduction']} custom={cfg['custom']}"


def batches(call, o):
    """Per batch: (a [M', K], b [K, N'], c [M', N'] or None, torch's result as D' [M', N']), library view."""
    op = op_of(call)
    got = result(call)
    x, y = o["x"], o["y"]
    if op == "matmul_bcast":  # (B, M, K) @ (K, N): one GEMM, N' = B*M
        bt, m, k = x.shape
        return [(y.T, x.reshape(bt * m, k).T, None, got.reshape(bt * m, -1).T)]
    if op == "matmul_bcast_b":  # (M, K) @ (B, K, N)
        return [(y[i].T, x.T, None, got[i].T) for i in range(y.shape[0])]
    k = x.shape[-1]
    xs = x.reshape(-1, x.shape[-2], k)
    ys = y.reshape(-1, y.shape[-2], y.shape[-1])
    gs = got.reshape(-1, got.shape[-2], got.shape[-1])
    cs = o["c"].reshape(gs.shape) if "c" in o else None
    out = []
    for i in range(xs.shape[0]):
        a = ys[i] if op in ("bmm_t", "matmul4d_t") else ys[i].T  # library A' = W [n, k]
        out.append((a, xs[i].T, None if cs is None else cs[i].T, gs[i].T))
    return out


def main():
    rows = []
    for call, parsed in zip(CALLS, PARSED):
        op = op_of(call)
        if op not in OPS:
            continue
        t = call["type"]
        lines = [l for l in parsed["lt"] if "config" in l]
        assert len(lines) == 1
        line = lines[0]
        cfg = line["config"]
        api = [x for x in parsed["cublas"]]
        assert len(api) == 1
        p = api[0]["params"]
        row = {"id": call["id"], "name": call["name"], "op": op, "type": t, "api": api[0]["fn"], "lt_fn": line["fn"],
               "layout": ("T" if line["computeDesc"].get("transa") == "OP_T" else "N") + ("T" if line["computeDesc"].get("transb") == "OP_T" else "N"),
               "MNK": (int(line["Ddesc"]["rows"]), int(line["Ddesc"]["cols"]),
                       int(line["Adesc"]["rows"] if line["computeDesc"].get("transa") == "OP_T" else line["Adesc"]["cols"])),
               "lt_batch": {r: line[r + "desc"].get("batchCount") for r in "ABCD"},
               "lt_stride": {r: line[r + "desc"].get("stridedBatchOffset") for r in "ABCD"},
               "api_batch": p.get("batchCount"), "api_strides": [p.get("strideA"), p.get("strideB"), p.get("strideC")],
               "api_mnk": [p.get("m"), p.get("n"), p.get("k")], "config": cfg_key(cfg), "cfg": cfg, "ws": cfg["workspace"]}
        o = operands(call)
        alpha, beta = SCAL.get(op, (1.0, 0.0))
        res = []
        try:
            for (a, b, c, g) in batches(call, o):
                d = lib(a, b, c, t, cfg, alpha=alpha, beta=beta, layout=row["layout"])
                res.append(int((d != g).sum()))
            row["batches"] = len(res)
            row["mismatch_per_batch"] = res
        except Exception as e:  # noqa: BLE001
            row["model"] = "no rules: " + str(e).split("(")[0].strip()
        rows.append(row)
    # the same library shape (layout, M, N, K, type) among non-batched calls (every op in the recording)
    single = collections.defaultdict(list)
    for call, parsed in zip(CALLS, PARSED):
        for line in parsed["lt"]:
            if "config" not in line or "batchCount" in line["Ddesc"]:
                continue
            lay = ("T" if line["computeDesc"].get("transa") == "OP_T" else "N") + ("T" if line["computeDesc"].get("transb") == "OP_T" else "N")
            K = int(line["Adesc"]["rows"] if lay[0] == "T" else line["Adesc"]["cols"])
            single[(lay, int(line["Ddesc"]["rows"]), int(line["Ddesc"]["cols"]), K, call["type"])].append(
                (call["id"], call["name"], cfg_key(line["config"]), line["computeDesc"].get("epilogue", "none"), line["fn"]))
    for r in rows:
        same = single.get((r["layout"], *r["MNK"], r["type"]), [])
        r["same_shape_nonbatched"] = [s for s in same if s[0] != r["id"]]
    json.dump(rows, open(f"{OUT}/q2_results.json", "w"), indent=1, default=str)
    for r in rows:
        ok = ("no rules" if "model" in r else
              f"{sum(x == 0 for x in r['mismatch_per_batch'])}/{r['batches']} batches exact ({sum(r['mismatch_per_batch'])} bad)")
        print(r["id"], r["name"], r["type"], r["api"], r["layout"], "MNK", r["MNK"], "lt batch", r["lt_batch"]["D"],
              "strides", r["lt_stride"], "|", r["config"], "|", ok)
        for s in r["same_shape_nonbatched"]:
            print("      same shape, not batched:", s, "SAME CONFIG" if s[2] == r["config"] else "DIFFERENT")


if __name__ == "__main__":
    main()
