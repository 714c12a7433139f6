"""Q2 follow-up: the batched calls the model misses, replayed with variants of the configuration
(bf16 algorithm 24 'stages 32x1': the k16 instruction of algorithm 23, other stage depths; tf32-mode calls
that ran the fp32 SIMT algorithm 55: fp32 operands, no tf32 rounding). Prints mismatch counts."""
import json
from common import *
from q2_batched import batches, SCAL

R = {r["id"]: r for r in json.load(open(f"{OUT}/q2_results.json"))}


def count(call, cfg, a_type=None):
    o = operands(call)
    alpha, beta = SCAL.get(op_of(call), (1.0, 0.0))
    bad = 0
    for (a, b, c, g) in batches(call, o):
        if a_type:
            d = mmaemu.library_gemm(np.ascontiguousarray(a), np.ascontiguousarray(b),
                                    None if c is None else np.ascontiguousarray(c), a_type=a_type, b_type=a_type,
                                    d_type="fp32", alpha=alpha, beta=beta, algo=cfg, backend="cpu")
        else:
            d = lib(a, b, c, call["type"], cfg, alpha=alpha, beta=beta)
        bad += int((d != g).sum())
    return bad


for r in R.values():
    call = CALLS[r["id"]]
    cfg = r["cfg"]
    if r["type"] == "bf16" and cfg["algo_id"] == 24 and r.get("mismatch_per_batch") and sum(r["mismatch_per_batch"]):
        out = {"logged": sum(r["mismatch_per_batch"])}
        for name, ch in (("algo23 (k16)", {"algo_id": 23}), ("stages 16", {"stages_name": "16x1"}),
                         ("stages 64", {"stages_name": "64x1"}), ("stages UNDEFINED", {"stages_name": "UNDEFINED"}),
                         ("algo23 stages 64", {"algo_id": 23, "stages_name": "64x1"})):
            out[name] = count(call, {**cfg, **ch})
        print(r["id"], r["name"], r["type"], r["config"], out)
    if r["type"] == "tf32" and cfg["algo_id"] == 55:
        print(r["id"], r["name"], r["type"], r["config"], {"logged (tf32 operands)": sum(r.get("mismatch_per_batch", [0])),
                                                           "as fp32 (no tf32 rounding)": count(call, cfg, a_type="fp32")})
