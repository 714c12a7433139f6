"""Operands in, results out: NumPy arrays and torch tensors, float dtypes or raw bits.

The C++ side reads raw bits only. An operand given in a float dtype must hold exactly the format the
instruction or call reads (a float16 array for an fp16 operand, torch.bfloat16 for bf16; float32 for
fp32 and tf32); its bits are taken as they are, never converted. Results come back in the kind of the
first operand: NumPy or torch (on the operand's device), floats when the operands were floats and the
framework has the result's float dtype, raw bits otherwise.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from . import _formats
from ._mmaemu import InputError


def _torch():
    return sys.modules.get("torch")


def is_torch_tensor(x) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


@dataclass
class ResultKind:
    torch_device: object = None  # None: NumPy
    floats: bool = False


_SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def kind_of(x) -> ResultKind:
    if is_torch_tensor(x):
        return ResultKind(torch_device=x.device, floats=x.dtype.is_floating_point)
    return ResultKind(floats=np.asarray(x).dtype.kind == "f" or _formats.format_of_float_dtype(np.asarray(x).dtype) is not None)


def to_bits(x, fmt_name: str, role: str) -> np.ndarray:
    """`x`'s raw bits as a C-ordered NumPy array for the C++ side (integers pass as they are: the C++
    side checks their width with the command line's message)."""
    fmt = _formats.FORMATS[fmt_name]
    if is_torch_tensor(x):
        torch = _torch()
        if x.dtype.is_floating_point:
            held = _formats.format_of_float_dtype(x.dtype, torch)
            _check_float(held, fmt, role, str(x.dtype))
            width = np.dtype(fmt.bits_dtype).itemsize
            x = x.contiguous().view(getattr(torch, np.dtype(_SIGNED[width]).name) if width > 1 else torch.uint8)
        # A CUDA tensor's bits come to the host here: the C++ side computes on host words.
        array = x.detach().contiguous().cpu().numpy()
        if array.dtype.kind == "i":
            array = array.view(np.dtype(array.dtype.str.replace("i", "u")))
        return array
    array = np.ascontiguousarray(x)
    if array.dtype.kind in "iub":
        return array
    held = _formats.format_of_float_dtype(array.dtype)
    _check_float(held, fmt, role, str(array.dtype))
    return array.view(fmt.bits_dtype)


def _check_float(held: str | None, fmt: _formats.Format, role: str, dtype_name: str) -> None:
    expected = "fp32" if fmt.name == "tf32" else fmt.name
    if held != expected:
        hint = f"a {expected} array" if expected else "raw bits"
        raise InputError(f"{role}: has dtype {dtype_name}, which holds {held or 'no format mmaemu knows'}; "
                         f"{role} is read as {fmt.name}: give {hint} or its raw bits "
                         f"({np.dtype(fmt.bits_dtype).name})")


def on_cuda(x) -> bool:
    return is_torch_tensor(x) and x.is_cuda


def device_bits(x, fmt_name: str, role: str):
    """A CUDA tensor's raw bits as an integer tensor on its device (no copy to the host)."""
    torch = _torch()
    fmt = _formats.FORMATS[fmt_name]
    width = np.dtype(fmt.bits_dtype).itemsize
    if x.dtype.is_floating_point:
        _check_float(_formats.format_of_float_dtype(x.dtype, torch), fmt, role, str(x.dtype))
        x = x.contiguous().view(getattr(torch, np.dtype(_SIGNED[width]).name) if width > 1 else torch.uint8)
    return x.contiguous()


def device_result(shape, fmt_name: str, like):
    """An uninitialised integer tensor for a result, on `like`'s device."""
    torch = _torch()
    width = np.dtype(_formats.FORMATS[fmt_name].bits_dtype).itemsize
    dtype = torch.uint8 if width == 1 else getattr(torch, np.dtype(_SIGNED[width]).name)
    return torch.empty(shape, dtype=dtype, device=like.device)


def device_float(bits, fmt_name: str, floats: bool):
    torch = _torch()
    dtype = _formats.torch_float_dtype(_formats.FORMATS[fmt_name], torch) if floats else None
    return bits.view(dtype) if dtype is not None else bits


def from_bits(bits: np.ndarray, fmt_name: str, kind: ResultKind):
    """A result's raw bits in the kind the operands came in."""
    fmt = _formats.FORMATS[fmt_name]
    if kind.torch_device is not None:
        torch = _torch()
        tensor = torch.from_numpy(bits.view(_SIGNED[bits.dtype.itemsize]))
        dtype = _formats.torch_float_dtype(fmt, torch) if kind.floats else None
        if dtype is not None:
            tensor = tensor.view(dtype)
        return tensor.to(kind.torch_device)
    if kind.floats:
        dtype = _formats.numpy_float_dtype(fmt)
        if dtype is not None:
            return bits.view(dtype)
    return bits


def zeros_like_result(shape, fmt_name: str) -> np.ndarray:
    return np.zeros(shape, dtype=_formats.FORMATS[fmt_name].bits_dtype)


def broadcast_rows(v, rows: int):
    """A bias vector [n] as the [rows, n] matrix it is added to (torch or numpy, on its own device)."""
    if is_torch_tensor(v):
        return v.reshape(1, -1).expand(rows, v.shape[0]).contiguous()
    return np.ascontiguousarray(np.broadcast_to(np.asarray(v).reshape(1, -1), (rows, np.asarray(v).shape[0])))
