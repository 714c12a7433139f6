"""Q1: bias vectors. Which cuBLAS(Lt) path ran, with which configuration, and where the bias enters, bit
for bit, tested against the library model's accumulator. Writes q1_results.json and prints tables."""
import collections
import json

from common import *

OPS = ("addmm_bias", "addmm_bias_scaled", "linear_bias", "linear3d_bias", "linear_bias_relu")
SCALARS = {"addmm_bias_scaled": (1.7, 0.5)}  # (alpha, beta) torch passes; the others 1, 1


def relu_bits(bits, t):
    v = to_f32(bits, t)
    out = bits.copy()
    out[v < 0] = 0
    return out


def cfg_key(cfg):
    if cfg is None:
        return "-"
    s = f"algo{cfg['algo_id']} tile={cfg['tile_name']} stages={cfg['stages_name']} splitK={cfg['split_k']}"
    s += f" red={cfg['reduction']} custom={cfg['custom']}"
    return s


def main():
    rows = []
    for call, parsed in zip(CALLS, PARSED):
        op = op_of(call)
        if op not in OPS:
            continue
        t = call["type"]
        D = storage(t)
        lines = [l for l in parsed["lt"] if "config" in l]
        assert len(lines) == 1, (call["id"], len(lines))
        line = lines[0]
        cfg = line["config"]
        epi = line["computeDesc"].get("epilogue", "none")
        api = ",".join(x["fn"] for x in parsed["cublas"]) or "cublasLt (direct)"
        o = operands(call)
        x, w, bias = o["x"], o["w"], o["bias"]
        m_rows = int(np.prod(x.shape[:-1]))
        k = x.shape[-1]
        a = w                                 # library A' = W  [n, k]
        b = x.reshape(m_rows, k).T            # library B' = X^T [k, m]
        n = w.shape[0]
        C = np.repeat(bias.reshape(n, 1), m_rows, axis=1)  # bias broadcast, library view [n, m]
        got = result(call).reshape(m_rows, n).T              # torch's D^T
        alpha, beta = SCALARS.get(op, (1.0, 1.0))
        row = {"id": call["id"], "name": call["name"], "op": op, "type": t, "api": api, "lt_fn": line["fn"],
               "epilogue": epi, "bias_pointer": line["computeDesc"].get("biasPointer"),
               "lt_beta": line["beta"], "config": cfg_key(cfg), "workspace_logged": cfg["workspace"],
               "C_desc": line["Cdesc"], "bias_type_field": {k2: v for k2, v in line["computeDesc"].items() if "ias" in k2}}
        post = (lambda d: relu_bits(d, D)) if op == "linear_bias_relu" else (lambda d: d)
        try:
            acc = to_f32(lib(a, b, None, t, cfg, d_type="fp32"), "fp32")   # plain fp32 accumulator (alpha 1)
            d0 = lib(a, b, None, t, cfg, alpha=alpha)                          # round_D(alpha * acc), the model's partials
            model_c = lib(a, b, f32_to(to_f32(C, D), D), t, cfg, alpha=alpha, beta=beta)  # model: beta * C epilogue
        except Exception as e:  # noqa: BLE001
            row["model"] = "no rules: " + str(e).split("(")[0].strip()
            rows.append(row)
            continue
        cf = to_f32(C, D)
        hyps = {
            # (a) one fp32 value, one rounding: alpha*acc + beta*bias as the unsplit fma, and as the split form
            "a_fma(alpha,acc,beta*bias)": f32_to(fma32(alpha, acc, mul32(beta, cf)), D),
            "a_fma(beta,bias,alpha*acc)": f32_to(fma32(beta, cf, mul32(alpha, acc)), D),
            # (b) the model's own beta*C epilogue with C = bias broadcast
            "b_model(C=bias,beta)": model_c,
            # (c) D rounded first (the model's D with beta 0), then beta*bias added and rounded again
            "c_round_D_then_add": f32_to(add32(to_f32(d0, D), mul32(beta, cf)), D),
            # (d) bias added before alpha: alpha * (acc + beta*bias)
            "d_alpha*(acc+bias)": f32_to(mul32(alpha, add32(acc, mul32(beta, cf))), D),
            # (e) model's D (beta 0) with bias ignored, as a control
            "control_no_bias": d0,
        }
        if op == "linear_bias_relu":
            hyps["relu_after_a_-0_kept"] = f32_to(np.where(to_f32(hyps["a_fma(alpha,acc,beta*bias)"], D) < 0, 0,
                                                           to_f32(hyps["a_fma(alpha,acc,beta*bias)"], D)).astype(np.float32), D)
        res = {}
        for name, h in hyps.items():
            h = post(h) if not name.startswith("relu_after") else h
            bad = np.argwhere(h != got)
            res[name] = int(len(bad))
            if len(bad) and name in ("a_fma(alpha,acc,beta*bias)", "b_model(C=bias,beta)"):
                ex = []
                for (i, j) in bad[:4]:
                    ex.append({"m'": int(i), "n'": int(j), "acc_fp32": f"{int(acc[i, j].view(np.uint32)):08x}",
                               "bias": hexs(C[i, j:j + 1]), "expected(torch)": hexs(got[i, j:j + 1]), "got": hexs(h[i, j:j + 1])})
                row.setdefault("mismatch_examples", {})[name] = ex
        row["outputs"] = int(got.size)
        row["mismatches"] = res
        # does the plain accumulator rounded already equal torch (so bias matters)?
        rows.append(row)
    json.dump(rows, open(f"{OUT}/q1_results.json", "w"), indent=1)

    print("## paths")
    paths = collections.Counter((r["op"], r["type"], r["api"], r["lt_fn"], r["epilogue"], r["lt_beta"]) for r in rows)
    for k2, v in sorted(paths.items()):
        print(v, k2)
    print("## hypotheses: calls matching every output / calls, per (op, type, config)")
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["op"], r["type"], r["config"])].append(r)
    for key, rs in sorted(groups.items()):
        if "model" in rs[0]:
            print(key, len(rs), "calls:", rs[0]["model"])
            continue
        hs = rs[0]["mismatches"].keys()
        print(key, len(rs), "calls:", "; ".join(f"{h} {sum(r['mismatches'][h] == 0 for r in rs)}/{len(rs)}"
                                                 f" ({sum(r['mismatches'][h] for r in rs)} bad)" for h in hs))


if __name__ == "__main__":
    main()
