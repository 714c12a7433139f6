"""mmaemu: bit-exact emulation of tensor-core matrix-multiply-accumulate, from Python.

    import mmaemu
    d = mmaemu.mma("sm90", "mma.m16n8k16.f32.bf16.bf16.f32", a, b, c)          # one instruction, T tiles
    d = mmaemu.gemm("sm90", "wgmma.m64n8k16.f32.bf16.bf16", a, b, c)         # any M, N, K
    d = mmaemu.library_gemm(a, b, profile="cublaslt-h200", d_type="bf16")    # a cuBLASLt matmul on an H200
    with mmaemu.torch.emulate("cublaslt-h200"): y = model(x)                 # a model's matmuls

Arrays are NumPy arrays or torch tensors, in the float dtype of their format (torch.bfloat16,
ml_dtypes.float8_e4m3fn, ...) or as raw bits (uint8, uint16, uint32, uint64), C order, laid out as the
command line's .npy files (README, "The command line"). Results come back in the operands' kind.
Errors are mmaemu.InputError (a ValueError) with the command line's message for its exit status 2,
and mmaemu.KernelError when a backend fails. The GIL is released while mmaemu computes.
"""
from __future__ import annotations

import json
import os

from . import _arrays
from ._mmaemu import InputError, KernelError
from . import _mmaemu

__all__ = ["mma", "gemm", "library_gemm", "resolve", "info", "instruction", "InputError", "KernelError",
           "DEFAULT_WORKSPACE"]
__version__ = "0.1.0"

DEFAULT_WORKSPACE = 32 << 20  # bytes: the workspace limit the resolver plans for by default
CERTAINTY_GATE = _mmaemu.certainty_gate  # the certainty strict calls require of the resolver's answer
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def _resolver_of(profile: str) -> str:
    return os.path.join(_DATA, profile, "resolver.json")


def instruction(arch: str, instr: str) -> dict:
    """The instruction's shape and its operands' formats: {"name", "m", "n", "k", "a", "b", "c", "d"}
    (and "scale", "scale_block" for block-scaled instructions)."""
    return _mmaemu.instruction(arch, instr)


def _instruction_operands(arch, instr, a, b, c, scale_a, scale_b):
    fmt = _mmaemu.instruction(arch, instr)
    ops = [_arrays.to_bits(a, fmt["a"], "a"), _arrays.to_bits(b, fmt["b"], "b"), _arrays.to_bits(c, fmt["c"], "c")]
    scales = [None if s is None else _arrays.to_bits(s, fmt.get("scale", "ue8m0"), name)
              for s, name in ((scale_a, "scale_a"), (scale_b, "scale_b"))]
    return fmt, ops, scales


def _on_gpu_backend(a, backend: str) -> bool:
    """CUDA tensors with a backend that may take them in place: auto (the first rung that reads device
    memory, simt) or simt itself. Other backends read host arrays, so their operands come to the host."""
    return _arrays.on_cuda(a) and backend in ("auto", "simt", "v1") and _mmaemu.built_with_cuda


def _instruction_on_device(single, arch, instr, a, b, c, scale_a, scale_b, backend):
    fmt = _mmaemu.instruction(arch, instr)
    if c is None:
        c = _arrays.device_result(tuple(a.shape[:-1]) + tuple(b.shape[-1:]), fmt["c"], a).zero_()
    elif not _arrays.on_cuda(c):
        raise InputError(f"c: on the host while a is on {a.device}: give every operand on one device")
    scales = [None if s is None else _arrays.device_bits(s, fmt.get("scale", "ue8m0"), name)
              for s, name in ((scale_a, "scale_a"), (scale_b, "scale_b"))]
    out = _arrays.device_result(tuple(c.shape), fmt["d"], a)
    run = _mmaemu.mma_cuda if single else _mmaemu.gemm_cuda
    run(arch, instr, _arrays.device_bits(a, fmt["a"], "a"), _arrays.device_bits(b, fmt["b"], "b"),
        _arrays.device_bits(c, fmt["c"], "c"), out, scales[0], scales[1], backend)
    return _arrays.device_float(out, fmt["d"], _arrays.kind_of(a).floats)


def mma(arch: str, instr: str, a, b, c, *, scale_a=None, scale_b=None, backend: str = "reference"):
    """D = A*B + C for one instruction over T tiles, as the architecture computes it.

    a [T, M, K], b [T, K, N], c [T, M, N] at the instruction's own M, N, K; block-scaled instructions
    take scale_a [T, M, S] and scale_b [T, S, N]. backend: "reference" (default), a backend's name
    (mmaemu.info()["backends"]) or "auto" (the fastest that can run it). Returns D [T, M, N].
    CUDA tensors with backend "auto" or "simt" are computed in device memory (simt), no copy to the host."""
    if _on_gpu_backend(a, backend):
        return _instruction_on_device(True, arch, instr, a, b, c, scale_a, scale_b, backend)
    fmt, (a_bits, b_bits, c_bits), (sa, sb) = _instruction_operands(arch, instr, a, b, c, scale_a, scale_b)
    d, _ = _mmaemu.mma(arch, instr, a_bits, b_bits, c_bits, sa, sb, backend)
    return _arrays.from_bits(d, fmt["d"], _arrays.kind_of(a))


def gemm(arch: str, instr: str, a, b, c=None, *, scale_a=None, scale_b=None, backend: str = "reference",
         trace: bool = False):
    """D = A*B + C for any M, N, K, as the architecture's MMA loop computes it: K padded with zeros to
    a multiple of the instruction's K, the instruction applied step by step along K.

    a [M, K] or [batch, M, K], b [K, N] or [batch, K, N], c [M, N] or [batch, M, N] (None: zeros).
    With trace=True, returns (D, trace): the accumulator after every step, [..., M, N, steps]."""
    fmt = _mmaemu.instruction(arch, instr)
    if not trace and _on_gpu_backend(a, backend):
        return _instruction_on_device(False, arch, instr, a, b, c, scale_a, scale_b, backend)
    if c is None:
        a_shape, b_shape = tuple(a.shape), tuple(b.shape)
        c = _arrays.zeros_like_result(a_shape[:-1] + b_shape[-1:], fmt["c"])
    fmt, (a_bits, b_bits, c_bits), (sa, sb) = _instruction_operands(arch, instr, a, b, c, scale_a, scale_b)
    d, steps, _ = _mmaemu.gemm(arch, instr, a_bits, b_bits, c_bits, sa, sb, backend, trace)
    kind = _arrays.kind_of(a)
    d = _arrays.from_bits(d, fmt["d"], kind)
    return (d, _arrays.from_bits(steps, fmt["d"], kind)) if trace else d


def _type_of(x, given: str | None, role: str) -> str:
    """An operand's format: `given`, else the one its float dtype holds."""
    if given:
        return given
    import sys
    from . import _formats
    held = _formats.format_of_float_dtype(x.dtype, sys.modules.get("torch")) if hasattr(x, "dtype") else None
    if held is None:
        raise InputError(f"--{role}-type: {role} holds raw bits ({x.dtype}): name its format with {role}_type=")
    return held


def _call(profile, a_type, b_type, d_type, alpha, beta, scale_a, scale_b, fast_accum, layout, workspace, torch_op,
          min_certainty=None, bias=False, mat2_transposed=False, mat1_transposed=False, calls=None, force_capture=False):
    def scale_text(s):
        if s is None:
            return ""
        return repr(float(s.item() if hasattr(s, "item") else s))
    call = _mmaemu.LibraryCall(profile, a_type, b_type, d_type, float(alpha), float(beta), scale_text(scale_a),
                               scale_text(scale_b), bool(fast_accum), layout, None if workspace is None else int(workspace),
                               _resolver_of(profile),
                               torch_op, None if min_certainty is None else float(min_certainty))
    call.bias = bool(bias)
    call.mat2_transposed = bool(mat2_transposed)
    call.mat1_transposed = bool(mat1_transposed)
    call.calls = "" if calls is None else os.fspath(calls)
    call.force_capture = bool(force_capture)
    return call


def _default_d_type(a_type: str) -> str:
    if a_type in ("bf16", "fp16"):
        return a_type
    if a_type in ("fp32", "tf32"):
        return "fp32"
    raise InputError(f"--d-type: {a_type} operands need d_type= (bf16, fp16 or fp32)")


def library_gemm(a, b, c=None, *, profile: str = "cublaslt-h200", a_type: str | None = None,
                 b_type: str | None = None, d_type: str | None = None, alpha: float = 1.0, beta: float = 0.0,
                 scale_a=None, scale_b=None, fast_accum: bool = False, algo="auto", layout: str = "TN",
                 workspace: int = DEFAULT_WORKSPACE, backend: str = "reference", min_certainty: float | None = None,
                 calls=None, force_capture: bool = False):
    """D = alpha * scale_a * scale_b * A x B + beta * C as the library profile's model computes it
    (cuBLASLt on an H200 for "cublaslt-h200": split-K, FP8 promotion, the epilogue).

    The library's view: a [M, K], b [K, N], c [M, N] (None: zeros) in d_type. Types come from float
    dtypes, or are named (a_type, b_type: bf16 fp16 tf32 fp32 e4m3 e5m2; d_type: bf16 fp16 fp32;
    fp32 operands are computed as tf32 when a_type="tf32"). algo: "auto" (the configuration the
    profile's resolver says the heuristic picks for this layout and workspace limit) or a
    configuration as a dict (a recording's "config"). backend: "reference", "host", "cpu" (the chains on
    vector lanes, every core) or "cuda". min_certainty (algo "auto"): refuse (InputError, with the reason)
    a call whose resolved configuration is less sure than this (CERTAINTY_GATE: the resolver's bar); None:
    answer it, with a warning on stderr below the bar (mmaemu.resolve reports each answer's certainty).
    calls (algo "auto"): a capture of a model's calls (mmaemu-capture/1, the README's "Captures"): a call
    found there takes the configuration cuBLASLt ran for it; one not found the resolver's answer, with a
    warning (refused with min_certainty). force_capture: take a capture made with another library build or
    SM count than the profile's (warned; refused otherwise)."""
    a_type = _type_of(a, a_type, "a")
    b_type = _type_of(b, b_type, "b")
    d_type = d_type or (_type_of(c, None, "c") if c is not None and hasattr(c, "dtype") and
                        _arrays.kind_of(c).floats else _default_d_type(a_type))
    call = _call(profile, a_type, b_type, d_type, alpha, beta, scale_a, scale_b, fast_accum, layout, workspace, "",
                 min_certainty, calls=calls, force_capture=force_capture)
    config = None if algo == "auto" else json.dumps(algo)
    if _arrays.on_cuda(a) and backend == "cuda":
        return _on_device(call, config, (a, a_type, "a"), (b, b_type, "b"), (c, d_type, "c"), d_type)
    if c is None:
        c = _arrays.zeros_like_result((a.shape[0], b.shape[1]), d_type)
    d = _mmaemu.library_gemm(_arrays.to_bits(a, a_type, "a"), _arrays.to_bits(b, b_type, "b"),
                             _arrays.to_bits(c, d_type, "c"), call, config, backend)
    return _arrays.from_bits(d, d_type, _arrays.kind_of(a))


def torch_gemm(op: str, mat1, mat2, input=None, *, profile: str = "cublaslt-h200", mat1_type: str | None = None,
               mat2_type: str | None = None, out_type: str | None = None, alpha: float = 1.0, beta: float = 0.0,
               scale_a=None, scale_b=None, fast_accum: bool = False, workspace: int | None = None,
               backend: str = "reference", min_certainty: float | None = None, mat2_transposed: bool = False,
               batch: int = 1, rows=None, algo=None, mat1_transposed: bool = False, calls=None,
               force_capture: bool = False):
    """A PyTorch call as the library profile computes it: op is "matmul", "addmm", "linear" or
    "scaled_mm"; mat1 [m, k] and mat2 [k, n] in torch's view (for linear, mat2 = weight.T), input
    [m, n] addmm's (beta * input), or a bias vector [n] (addmm's 1-D input; linear's bias, with beta 1):
    cuBLASLt's bias epilogue where torch hands it the bias (beta 1; n or k = 1 is not recorded and
    refused), else a GEMM with the bias broadcast into C; scale_a, scale_b _scaled_mm's per-tensor scales (mat1's, mat2's).
    mat2_transposed (matmul, addmm): mat2 is a transposed view of an [n, k] matrix, as torch passes
    w.t() (the heuristic sees layout TN); mat1_transposed: mat1 is one (NT). batch (matmul, addmm): these operands are one product of a
    strided batched call of `batch` products (torch.bmm, baddbmm), which has its own configuration.
    rows: only these rows of D (the call described, resolved and checked whole): D [len(rows), n].
    algo: the configuration cuBLASLt ran (a dict, as a recording or cuBLASLt's log gives it) instead of
    the resolver's.
    With m, n or k = 0 torch calls no library, and neither does this: an empty D, or for k = 0 zeros
    (addmm: beta * input as at::mul computes it, beta rounded to the dtype first; beta 1: input itself).
    The call is described as cuBLASLt sees it (the library's A is mat2) and resolved as torch's would
    be (workspace None: torch's limit for the op, 1 MiB for _scaled_mm, 32 MiB for the others); min_certainty
    as for library_gemm, and calls, force_capture (a capture of the model's calls). Returns D [m, n].
    mmaemu.torch.emulate() calls this for a model's matmuls."""
    mat1_type = _type_of(mat1, mat1_type, "a")
    mat2_type = _type_of(mat2, mat2_type, "b")
    out_type = out_type or _default_d_type(mat1_type)
    bias = input is not None and len(input.shape) == 1
    if bias:
        if op == "linear":
            beta = 1.0
        input = _arrays.broadcast_rows(input, mat1.shape[0])
    call = _call(profile, mat1_type, mat2_type, out_type, alpha, beta, scale_a, scale_b, fast_accum, "TN", workspace, op,
                 min_certainty, bias=bias, mat2_transposed=mat2_transposed, mat1_transposed=mat1_transposed,
                 calls=calls, force_capture=force_capture)
    call.batch = int(batch)
    if rows is not None:
        call.rows = [int(r) for r in rows]
    # An empty operand (m, n or k = 0) calls no library: torch's own answer, computed on the host.
    empty = 0 in (mat1.shape[0], mat1.shape[1], mat2.shape[1])
    config = None if algo is None else json.dumps(algo)
    if _arrays.on_cuda(mat1) and backend == "cuda" and not empty and rows is None:
        return _on_device(call, config, (mat1, mat1_type, "mat1"), (mat2, mat2_type, "mat2"), (input, out_type, "input"),
                          out_type)
    if input is None:
        input = _arrays.zeros_like_result((mat1.shape[0], mat2.shape[1]), out_type)
    d = _mmaemu.library_gemm(_arrays.to_bits(mat1, mat1_type, "mat1"), _arrays.to_bits(mat2, mat2_type, "mat2"),
                             _arrays.to_bits(input, out_type, "input"), call, config, backend)
    return _arrays.from_bits(d, out_type, _arrays.kind_of(mat1))


def _on_device(call, config, a, b, c, d_type):
    """A library or torch call whose tensors are on a CUDA device, computed there by the GPU engine."""
    if not _mmaemu.built_with_cuda:
        raise KernelError("backend cuda: this mmaemu was built without CUDA")
    (x, x_type, x_role), (y, y_type, y_role), (z, z_type, z_role) = a, b, c
    x_bits = _arrays.device_bits(x, x_type, x_role)
    if z is None:
        z = _arrays.device_result((x.shape[0], y.shape[1]), z_type, x).zero_()
    elif not _arrays.on_cuda(z):
        raise InputError(f"{z_role}: on the host while {x_role} is on {x.device}: give every operand on one device")
    out = _arrays.device_result((x.shape[0], y.shape[1]), d_type, x)
    _mmaemu.library_gemm_cuda(x_bits, _arrays.device_bits(y, y_type, y_role), _arrays.device_bits(z, z_type, z_role),
                              out, call, config)
    return _arrays.device_float(out, d_type, _arrays.kind_of(x).floats)


def resolve(m: int, n: int, k: int, *, a_type: str, b_type: str, d_type: str, profile: str = "cublaslt-h200",
            layout: str = "TN", workspace: int | None = None, alpha: float = 1.0, beta: float = 0.0,
            scale_a=None, scale_b=None, fast_accum: bool = False, torch_op: str = "", calls=None,
            force_capture: bool = False, batch: int = 1, bias: bool = False, mat2_transposed: bool = False,
            mat1_transposed: bool = False) -> dict:
    """The configuration the profile's heuristic picks for a call (`mmaemu resolve`), as a dict: the
    call as the library sees it, "config" (or "refused") and whether the library model computes it.
    With torch_op ("matmul", "addmm", "linear", "scaled_mm"), m, n, k and the types are torch's.
    workspace None: 32 MiB, or torch's limit for torch_op. calls: a capture (its configuration for a call
    found there: "captured" true, certainty 1); batch, bias, mat2_transposed, mat1_transposed describe a
    torch call as torch_gemm's do."""
    call = _call(profile, a_type, b_type, d_type, alpha, beta, scale_a, scale_b, fast_accum, layout, workspace, torch_op,
                 bias=bias, mat2_transposed=mat2_transposed, mat1_transposed=mat1_transposed, calls=calls,
                 force_capture=force_capture)
    call.batch = int(batch)
    return json.loads(_mmaemu.resolve(call, m, n, k))


def info(arch: str | None = None, every_n: bool = False) -> dict:
    """What `mmaemu info` says, as a dict: "version", "architectures" (instructions and block models),
    "backends" (the fallback ladder and what each runs here), "library_profiles", "devices", "versions".
    (T5's property catalogue is the command line's alone.)"""
    return json.loads(_mmaemu.info(arch, every_n))


from . import torch  # noqa: E402  (mmaemu.torch imports torch itself, lazily)
