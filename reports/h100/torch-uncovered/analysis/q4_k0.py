"""Q4: addmm with K = 0 (alpha 1.3, beta 0, 1, 0.5, 1.7): torch's result against beta * input rounded in
several ways, and the log lines each call wrote. Writes q4_results.json."""
import json

from common import *

rows = []
for call, parsed in zip(CALLS, PARSED):
    if op_of(call) != "addmm_k0":
        continue
    t, T = call["type"], storage(call["type"])
    beta = float(call["name"].split("beta")[1])
    c = operands(call)["c"]
    got = result(call)
    cf = to_f32(c, T)
    beta32 = np.float32(beta)
    beta_d = to_f32(f32_to(np.array([beta32]), T), T)[0]  # beta rounded to the dtype
    hyps = {
        "fp32: round_D(fp32(beta) * input)": f32_to(mul32(beta32, cf), T),
        "dtype: round_D(round_D(beta) * input)": f32_to(mul32(beta_d, cf), T),
        "float64: round_D(beta * input)": f32_to((np.float64(beta) * cf.astype(np.float64)).astype(np.float32), T)
        if T == "fp32" else f32_to(np.float64(beta) * cf.astype(np.float64), T),  # (16-bit: via fp32, see note)
        "input unchanged": c,
        "zeros": np.zeros_like(c),
    }
    if T != "fp32":  # double -> 16-bit in one rounding, not via fp32
        x = np.float64(beta) * cf.astype(np.float64)
        if T == "fp16":
            hyps["float64: round_D(beta * input)"] = x.astype(np.float16).view(np.uint16)
        else:  # bf16 from float64, one rounding: exact via fractions is overkill; use the fp32 product's exactness check
            p32 = mul32(beta32, cf)
            hyps["float64: round_D(beta * input)"] = f32_to(p32, T)  # identical unless fp32 rounding flips a bf16 tie
    row = {"id": call["id"], "name": call["name"], "type": t, "beta": beta, "lt_lines": len(parsed["lt"]),
           "cublas_calls": [x["fn"] for x in parsed["cublas"]], "outputs": int(got.size),
           "mismatches": {k: int((v.reshape(got.shape) != got).sum()) for k, v in hyps.items()},
           "signed_zeros_in_result": int((got == (0x8000 if T != "fp32" else 0x80000000)).sum())}
    rows.append(row)
    print(row["id"], row["name"], t, "lt lines", row["lt_lines"], "cublas", row["cublas_calls"], row["mismatches"])
json.dump(rows, open(f"{OUT}/q4_results.json", "w"), indent=1)
