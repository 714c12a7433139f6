"""Q1, split-K with REDUCTION_SCHEME_INPLACE under EPILOGUE_BIAS (the calls where no one-rounding hypothesis
fits): each slice's fp32 partial from the library model (the logged configuration with A's columns outside
the slice zeroed: the other slices' partials are then +0), checked to add up to the model's split sum,
then orders of adding bias and partials into D in D's type. Writes q1_inplace.json."""
import itertools
import json

from common import *


def chunk_of(K, S, t, algo):
    b = 4 if storage(t) == "fp32" else 2
    tail = (t in ("fp32", "tf32") or algo in (23, 24)) and K % (128 // b) != 0
    if tail:
        g = 16 // b
        return -(-(-(-K // S)) // g) * g
    g = 128 // b
    if algo == 66:
        return (K // S + g - 1) // g * g
    return -(-(-(-K // g)) // S) * g


def rnd(x, T):
    return to_f32(f32_to(x, T), T)


def main():
    out = []
    for call, parsed in zip(CALLS, PARSED):
        lines = [l for l in parsed["lt"] if "config" in l]
        if not lines or lines[0]["config"]["reduction"] != 1 or "bias" not in call["name"]:
            continue
        cfg = lines[0]["config"]
        t, T = call["type"], storage(call["type"])
        o = operands(call)
        x, w, bias = o["x"], o["w"], o["bias"]
        m_rows = int(np.prod(x.shape[:-1]))
        K = x.shape[-1]
        a, b = w, x.reshape(m_rows, K).T
        n = w.shape[0]
        got = result(call).reshape(m_rows, n).T
        if call["name"].startswith("linear_bias_relu"):
            pass  # relu applied below
        S = cfg["split_k"]
        row = {"id": call["id"], "name": call["name"], "type": t, "algo": cfg["algo_id"], "split_k": S}
        try:
            acc = to_f32(lib(a, b, None, t, cfg, d_type="fp32"), "fp32")
        except Exception as e:  # noqa: BLE001
            row["model"] = "no rules: " + str(e).split("(")[0].strip()
            out.append(row)
            print(row)
            continue
        ch = chunk_of(K, S, t, cfg["algo_id"])
        parts = []
        for s in range(S):
            lo, hi = s * ch, min(K, (s + 1) * ch)
            if lo >= K:
                break
            az = a.copy()
            az[:, :lo] = 0
            az[:, hi:] = 0
            parts.append(to_f32(lib(az, b, None, t, cfg, d_type="fp32"), "fp32"))
        s_sum = parts[0].copy()
        for p in parts[1:]:
            s_sum = add32(s_sum, p)
        row["chunk"] = ch
        row["slices"] = len(parts)
        row["partials_add_up_to_model_sum"] = bool(np.array_equal(s_sum.view(np.uint32), acc.view(np.uint32)))
        bf = np.repeat(to_f32(bias, T).reshape(n, 1), m_rows, axis=1)
        relu = call["name"].startswith("linear_bias_relu")

        def fin(v):
            bits = f32_to(v, T)
            if relu:
                bits[to_f32(bits, T) < 0] = 0
            return bits

        hyps = {}
        for order_name, order in (("slice order", list(range(len(parts)))), ("reverse", list(range(len(parts)))[::-1])):
            d = rnd(bf, T)
            for s in order:
                d = rnd(add32(d, parts[s]), T)
            hyps[f"I1 bias first, then round_D(D + p_s), {order_name}"] = fin(d)
            d = rnd(add32(parts[order[0]], bf), T)
            for s in order[1:]:
                d = rnd(add32(d, parts[s]), T)
            hyps[f"I2 round_D(p_first + bias), then round_D(D + p_s), {order_name}"] = fin(d)
            d = rnd(parts[order[0]], T)
            for s in order[1:]:
                d = rnd(add32(d, parts[s]), T)
            hyps[f"I3 partials in D's type, bias last, {order_name}"] = fin(rnd(add32(d, bf), T))
        hyps["a one rounding: round_D(sum + bias)"] = fin(add32(acc, bf))
        # any order per output (atomics): is every output reached by I1 or I2 under some order?
        anyorder = np.zeros(got.shape, bool)
        if len(parts) <= 8:
            for perm in itertools.permutations(range(len(parts))):
                d1 = rnd(bf, T)
                for s in perm:
                    d1 = rnd(add32(d1, parts[s]), T)
                d2 = rnd(add32(parts[perm[0]], bf), T)
                for s in perm[1:]:
                    d2 = rnd(add32(d2, parts[s]), T)
                anyorder |= (fin(d1) == got) | (fin(d2) == got)
        row["mismatches"] = {h: int((v != got).sum()) for h, v in hyps.items()}
        row["I1/I2 some slice order per output: outputs unexplained"] = int((~anyorder).sum()) if len(parts) <= 8 else None
        row["outputs"] = int(got.size)
        bad = np.argwhere(hyps["I1 bias first, then round_D(D + p_s), slice order"] != got)
        row["examples_I1_slice_order"] = [{"m'": int(i), "n'": int(j), "bias": hexs(bias[i:i + 1]),
                                           "partials_fp32": [f"{int(p[i, j].view(np.uint32)):08x}" for p in parts],
                                           "expected(torch)": hexs(got[i, j:j + 1]),
                                           "got": hexs(hyps['I1 bias first, then round_D(D + p_s), slice order'][i, j:j + 1])}
                                          for (i, j) in bad[:3]]
        out.append(row)
        print(json.dumps({k: v for k, v in row.items() if not k.startswith("examples")}))
    json.dump(out, open(f"{OUT}/q1_inplace.json", "w"), indent=1)


if __name__ == "__main__":
    main()
