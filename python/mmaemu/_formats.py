"""The number formats mmaemu computes in, and the array dtypes that hold them: one table.

Each format has a raw-bit storage dtype (what the C++ side reads and writes: unsigned integers of the
format's storage width, one element per byte for fp4 and fp6) and, where the framework has one, a float
dtype holding the same bits: NumPy's own fp16/fp32/fp64, ml_dtypes' bf16 and sub-byte floats when
ml_dtypes is installed, and PyTorch's dtypes. tf32 operands are fp32 patterns (the hardware ignores the
low 13 bits), so float32 holds them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

try:  # optional: NumPy's bf16, fp8, fp6 and fp4 dtypes
    import ml_dtypes as _ml
except ImportError:  # pragma: no cover - exercised where ml_dtypes is absent
    _ml = None


@dataclass(frozen=True)
class Format:
    name: str            # mmaemu's spelling: "bf16", "e4m3", ...
    bits_dtype: type     # NumPy unsigned dtype of its raw bits
    numpy_float: str     # NumPy float dtype name holding the same bits ("" when none)
    torch_float: str     # torch dtype attribute name ("" when none)


FORMATS = {f.name: f for f in [
    Format("fp64", np.uint64, "float64", "float64"),
    Format("fp32", np.uint32, "float32", "float32"),
    Format("tf32", np.uint32, "float32", "float32"),
    Format("fp16", np.uint16, "float16", "float16"),
    Format("bf16", np.uint16, "bfloat16", "bfloat16"),
    Format("e4m3", np.uint8, "float8_e4m3fn", "float8_e4m3fn"),
    Format("e5m2", np.uint8, "float8_e5m2", "float8_e5m2"),
    Format("e3m2", np.uint8, "float6_e3m2fn", ""),
    Format("e2m3", np.uint8, "float6_e2m3fn", ""),
    Format("e2m1", np.uint8, "float4_e2m1fn", ""),
    Format("ue8m0", np.uint8, "float8_e8m0fnu", "float8_e8m0fnu"),
    Format("ue4m3", np.uint8, "", ""),
]}


def numpy_float_dtype(fmt: Format):
    """The NumPy float dtype holding `fmt`'s bits, or None (ml_dtypes absent, or no such dtype)."""
    if not fmt.numpy_float:
        return None
    if hasattr(np, fmt.numpy_float):
        return np.dtype(getattr(np, fmt.numpy_float))
    if _ml is not None and hasattr(_ml, fmt.numpy_float):
        return np.dtype(getattr(_ml, fmt.numpy_float))
    return None


def torch_float_dtype(fmt: Format, torch):
    """The torch dtype holding `fmt`'s bits, or None."""
    return getattr(torch, fmt.torch_float, None) if fmt.torch_float else None


def format_of_float_dtype(dtype, torch=None) -> str | None:
    """The format a float dtype holds ("bf16" for torch.bfloat16 or ml_dtypes.bfloat16), or None for
    integer (raw-bit) dtypes. fp32 arrays read as "fp32" (a tf32 operand is given as fp32)."""
    for fmt in FORMATS.values():
        if fmt.name == "tf32":
            continue
        if torch is not None and isinstance(dtype, torch.dtype):
            if torch_float_dtype(fmt, torch) == dtype:
                return fmt.name
        elif numpy_float_dtype(fmt) == dtype:
            return fmt.name
    return None
