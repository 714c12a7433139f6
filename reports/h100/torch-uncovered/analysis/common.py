"""Shared helpers: one CPU core, operand regeneration (explore.py's operand_bits, checked against the
recorded SHA-256), bit conversions, and the library model (mmaemu.library_gemm) per logged configuration."""
import hashlib
import json
import os
import sys

os.environ.setdefault("MMAEMU_THREADS", "1")
try:
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # at most one core
except (AttributeError, OSError):
    pass

import numpy as np

sys.path.insert(0, os.environ.get("MMAEMU_PYTHON_DIR", "build/python"))
import mmaemu  # noqa: E402

REC = os.environ.get("MMAEMU_EXPLORE_DIR", "/tmp/rec/x")  # explore.py's output
OUT = os.environ.get("MMAEMU_ANALYSIS_DIR", "/tmp/analysis")
EXPLORE = json.load(open(f"{REC}/explore.json"))
CALLS = EXPLORE["calls"]
PARSED = json.load(open(f"{OUT}/calls_parsed.json")) if os.path.exists(f"{OUT}/calls_parsed.json") else None


def operand_bits(rng, shape, dtype):  # explore.py's, verbatim (dtype: "fp32", "fp16", "bf16")
    x = rng.standard_normal(shape).astype(np.float32)
    if dtype == "fp32":
        return x.view(np.uint32)
    if dtype == "fp16":
        return x.astype(np.float16).view(np.uint16)
    u = x.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def storage(t):
    return "fp32" if t in ("fp32", "tf32") else t


def operands(call):
    """The call's operands as raw bits, in generation order (= the inputs dict's order), SHA-checked."""
    g = np.random.default_rng(1000 + call["id"])
    out = {}
    for name, shape in call["shapes"].items():
        if name == "result":
            continue
        bits = operand_bits(g, tuple(shape), storage(call["type"]))
        sha = hashlib.sha256(np.ascontiguousarray(bits).tobytes()).hexdigest()
        if sha != call["operands_sha256"][name]:
            raise SystemExit(f"call {call['id']} {call['name']}: operand {name} does not regenerate")
        out[name] = bits
    return out


def result(call):
    return np.load(f"{REC}/t/{call['id']}.npy")


# ---- bit conversions (exact, round to nearest even) ----
def to_f32(bits, t):
    """Raw bits of type t -> float32 values (exact)."""
    if t == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32)
    if t == "fp16":
        return bits.view(np.float16).astype(np.float32)
    return bits.view(np.float32)


def f32_to(x, t):
    """float32 values -> raw bits of type t, round to nearest even (NaN canonical for bf16)."""
    x = np.asarray(x, dtype=np.float32)
    if t == "bf16":
        u = x.view(np.uint32).astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        return np.where(np.isnan(x), np.uint16(0x7FC0), r).astype(np.uint16)
    if t == "fp16":
        return x.astype(np.float16).view(np.uint16)  # numpy's float32->float16 is RNE
    return x.view(np.uint32).copy()


def config_for_model(cfg):
    """assemble.py's config dict (the fields the model reads)."""
    return dict(cfg)


def lib(a, b, c, t, cfg, alpha=1.0, beta=0.0, d_type=None, layout="TN"):
    """mmaemu.library_gemm on raw bits: a [M, K], b [K, N], c [M, N] (or None), in the library's view."""
    at = "tf32" if t == "tf32" else storage(t)
    d_type = d_type or storage(t)
    return mmaemu.library_gemm(np.ascontiguousarray(a), np.ascontiguousarray(b),
                               None if c is None else np.ascontiguousarray(c), a_type=at, b_type=at, d_type=d_type,
                               alpha=alpha, beta=beta, algo=cfg, layout=layout, backend="cpu")


def hexs(bits):
    return " ".join(f"{int(v):0{bits.dtype.itemsize * 2}x}" for v in np.ravel(bits))


def op_of(call):
    return call["name"].split("-")[0]


def fma32(a, b, c):
    """fp32 fma(a, b, c), exactly rounded (nearest even), elementwise: a*b is exact in float64; the sum's
    float64 rounding error (two-sum) breaks the ties a double rounding would get wrong."""
    a = np.asarray(a, np.float32).astype(np.float64)
    b = np.asarray(b, np.float32).astype(np.float64)
    c = np.asarray(c, np.float32).astype(np.float64)
    p = a * b
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    r = s.astype(np.float32)
    # a float64 s exactly halfway between two fp32 values, with a nonzero error: round by the error's sign
    lo = np.nextafter(r, np.float32(-np.inf)).astype(np.float64)
    hi = np.nextafter(r, np.float32(np.inf)).astype(np.float64)
    r64 = r.astype(np.float64)
    tie_lo = (s - lo == r64 - s) & (err != 0)  # s halfway between lo and r
    tie_hi = (hi - s == s - r64) & (err != 0)
    s2 = np.where(tie_lo | tie_hi, np.nextafter(s, s + err), s)
    return s2.astype(np.float32)


def add32(a, b):
    return (np.asarray(a, np.float32) + np.asarray(b, np.float32)).astype(np.float32)


def mul32(a, b):
    return (np.asarray(a, np.float32) * np.asarray(b, np.float32)).astype(np.float32)
