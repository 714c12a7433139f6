"""Control: addmm_full (input a full [m, n] matrix, alpha 1, beta 1) against the epilogue hypotheses, to
see whether the plain-GEMM beta*C path itself follows the model (prints mismatch counts per hypothesis)."""
from common import *

for call, parsed in zip(CALLS, PARSED):
    if op_of(call) != "addmm_full":
        continue
    line = [l for l in parsed["lt"] if "config" in l][0]
    cfg, t = line["config"], call["type"]
    T = storage(t)
    o = operands(call)
    a, b, C = o["w"], o["x"].T, np.ascontiguousarray(o["c"].T)
    got = result(call).T
    try:
        acc = to_f32(lib(a, b, None, t, cfg, d_type="fp32"), "fp32")
        d0 = lib(a, b, None, t, cfg)
        model = lib(a, b, C, t, cfg, alpha=1.0, beta=1.0)
    except Exception as e:  # noqa: BLE001
        print(call["id"], call["name"], t, "no rules", cfg["algo_id"])
        continue
    cf = to_f32(C, T)
    h = {"model beta*C": model, "one rounding acc+C": f32_to(add32(acc, cf), T),
         "round_D(round_D(acc)+C)": f32_to(add32(to_f32(d0, T), cf), T), "C ignored": d0,
         "C transposed?": f32_to(add32(acc, to_f32(np.ascontiguousarray(o['c']).reshape(C.shape), T)), T)}
    print(call["id"], call["name"], t, line["fn"], f"algo{cfg['algo_id']} S={cfg['split_k']} red={cfg['reduction']}",
          {k: int((v != got).sum()) for k, v in h.items()}, "of", got.size)
