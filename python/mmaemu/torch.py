"""PyTorch integration: a model's matmuls through a library profile, without editing the model.

    import mmaemu
    with mmaemu.torch.emulate("cublaslt-h200", backend="cpu"):
        logits = model(x)            # torch.matmul, @, torch.mm, torch.addmm, F.linear, torch._scaled_mm

Inside the block every such call is computed as the profile's library computes it on its GPU (for
"cublaslt-h200": the configuration cuBLASLt's heuristic picks on an H200, run through the library
model), on the CPU ("reference", "host", "cpu") or on a CUDA GPU ("cuda"), whatever device the tensors are
on; results come back on that device. Every other op runs natively: choose ops that give the same
bits on every device (additions, multiplications, ReLU, casts) or reproduce them separately.

Calls the model does not cover raise mmaemu.InputError naming the call and why (strict=True, the
default), or run natively with a warning (strict=False). strict=True also refuses a call whose
configuration the resolver is not sure of (mmaemu.CERTAINTY_GATE; strict=False computes it, with a
warning on stderr): the model's bits for a configuration cuBLASLt may not pick would be wrong bits.
A bias (addmm with a 1-D input, F.linear with a bias) goes where torch sends it: cuBLASLt's bias
epilogue (beta 1; with n or k = 1 not recorded, refused) or a GEMM with the bias broadcast into C. 1-D operands of
torch.matmul in bf16 and fp16 run as the GEMMs torch makes of them (n or m = 1). Batched products
(torch.bmm, baddbmm, matmul with batches on both sides or on mat2) are cuBLAS's strided batched calls:
each product with the batched call's configuration, whose certainty the resolver states apart.
Not covered (refused by name): addmm into bf16 or fp16 with alpha or beta 1 where cuBLASLt runs
algorithm 66 without split-K (cuBLAS adds C in D's buffer with an epilogue not modelled yet), a bias
with alpha other than 1 on the bias epilogue, fp32 and
tf32 matrix-vector products (cuBLAS's gemv kernels), dot products, _scaled_mm with other than
per-tensor scales or without out_dtype, and dtypes the profile has no kernels for. A call with an
empty operand (m, n or k = 0) is answered as torch answers it, without the library.
"""
from __future__ import annotations

import sys
import time
import warnings

from . import _formats
from ._mmaemu import InputError


class _Unsupported(Exception):
    pass


def _format(t, torch) -> str:
    fmt = _formats.format_of_float_dtype(t.dtype, torch)
    if fmt is None:
        raise _Unsupported(f"dtype {t.dtype}")
    return fmt


def emulate(profile: str = "cublaslt-h200", backend: str = "cpu", *, strict: bool = True,
            tf32: bool | None = None, workspace: int | None = None, progress: bool | None = None,
            calls=None, force_capture: bool = False, _describe: list | None = None):
    """A context manager (a torch.overrides.TorchFunctionMode) running matmuls through `profile`.

    backend: "reference", "host" (the kernels' arithmetic per output on every CPU core), "cpu" (the same
    arithmetic on vector lanes and every core: the same bits, tens of times faster) or "cuda".
    tf32: fp32 matmuls as tf32 (None: as torch.backends.cuda.matmul.allow_tf32 says, as on the GPU).
    workspace: the workspace limit the heuristic plans for (None: PyTorch's for each op: 1 MiB for
    _scaled_mm, 32 MiB for the others).
    progress: a line per call on stderr (None: when stderr is a terminal).
    calls: a capture of this model's calls on the GPU (mmaemu-capture/1): each call found there computes
    with the configuration cuBLASLt ran for it; one not found is refused under strict, else resolved with a
    warning. force_capture: take a capture made with another library build or SM count (warned).
    _describe (capture's): a list that receives each call's description as the library sees it (mmaemu.resolve's
    "call") instead of computing it; the results are then empty tensors of the right shapes."""
    import torch
    from torch.overrides import TorchFunctionMode

    from . import torch_gemm

    show = sys.stderr.isatty() if progress is None else progress

    class _Emulate(TorchFunctionMode):
        calls = 0
        seconds = 0.0

        def _run(self, op, mat1, mat2, input=None, alpha=1.0, beta=0.0, scale_a=None, scale_b=None,
                 out_dtype=None, fast_accum=False, batch=1):
            if mat1.dim() < 2 or mat2.dim() != 2:
                raise _Unsupported(f"operands of {tuple(mat1.shape)} and {tuple(mat2.shape)}")
            lead = tuple(mat1.shape[:-1])
            x = mat1.reshape(-1, mat1.shape[-1])  # torch folds [.., m, k] x [k, n] into one mm too
            fmt1, fmt2 = _format(x, torch), _format(mat2, torch)
            use_tf32 = torch.backends.cuda.matmul.allow_tf32 if tf32 is None else tf32
            if fmt1 == "fp32" and use_tf32:
                fmt1 = fmt2 = "tf32"
            out_fmt = _formats.format_of_float_dtype(out_dtype, torch) if out_dtype is not None else \
                ("fp32" if fmt1 == "tf32" else fmt1)
            if input is not None and input.dim() == 2 and tuple(input.shape) != (x.shape[0], mat2.shape[1]):
                input = input.expand(x.shape[0], mat2.shape[1])  # a broadcast input: torch expands it for cuBLAS
            # mat2 stored as [n, k] (w.t()): torch hands cuBLAS the transposed layout.
            def transposed_view(t):
                return t.dim() == 2 and t.shape[0] > 1 and t.shape[1] > 1 and not t.is_contiguous() and \
                    t.t().is_contiguous()
            transposed = op in ("matmul", "addmm") and transposed_view(mat2)
            mat1_transposed = op in ("matmul", "addmm", "linear") and transposed_view(mat1)
            started = time.perf_counter()
            from . import CERTAINTY_GATE
            if _describe is not None:
                from . import resolve
                bias = input is not None and input.dim() == 1
                r = resolve(x.shape[0], mat2.shape[1], x.shape[1], a_type=fmt1, b_type=fmt2, d_type=out_fmt,
                            profile=profile, workspace=workspace, alpha=1.0 if op == "linear" and bias else alpha,
                            beta=1.0 if op == "linear" and bias else beta, scale_a=scale_a, scale_b=scale_b,
                            fast_accum=fast_accum, torch_op=op, batch=batch, bias=bias, mat2_transposed=transposed,
                            mat1_transposed=mat1_transposed)
                _describe.append(r["call"])
                return torch.empty(*lead, mat2.shape[1], dtype=mat1.dtype, device=mat1.device)
            d = torch_gemm(op, x, mat2, input, profile=profile, mat1_type=fmt1, mat2_type=fmt2, out_type=out_fmt,
                           alpha=alpha, beta=beta, scale_a=scale_a, scale_b=scale_b, fast_accum=fast_accum,
                           workspace=workspace, backend=backend, min_certainty=CERTAINTY_GATE if strict else None,
                           mat2_transposed=transposed, mat1_transposed=mat1_transposed, batch=batch, calls=calls,
                           force_capture=force_capture)
            took = time.perf_counter() - started
            self.calls += 1
            self.seconds += took
            if show:
                print(f"mmaemu: {op} {fmt1}x{fmt2}->{out_fmt} {x.shape[0]}x{mat2.shape[1]}x{x.shape[1]} on {backend}: "
                      f"{took:.2f} s (calls {self.calls}, {self.seconds:.1f} s)", file=sys.stderr)
            return d.reshape(*lead, mat2.shape[1])

        def _matmul(self, a, b):
            """torch.matmul's forms: 2-D, [.., m, k] x [k, n] folded, 1-D operands as torch sends them."""
            if a.dim() == 1 or b.dim() == 1:
                if a.dim() == 1 and b.dim() == 1:
                    raise _Unsupported("a dot product (cuBLAS's dot, not a GEMM: not modelled)")
                if _format(a, torch) not in ("bf16", "fp16"):
                    raise _Unsupported("an fp32 or tf32 matrix-vector product (cuBLAS's gemv kernels, algorithms 13 "
                                       "and 14: not modelled)")
                if b.dim() == 1:  # [.., m, k] x [k]: cuBLAS's GEMM with n = 1
                    return self._matmul(a, b.reshape(-1, 1)).squeeze(-1)
                return self._matmul(a.reshape(1, -1), b).squeeze(-2)  # [k] x [.., k, n]
            if b.dim() == 2:
                return self._run("matmul", a, b)
            return self._batched("matmul", a, b)

        def _batched(self, op, a, b, c=None, alpha=1.0, beta=0.0):
            """A strided batched call (torch.bmm, baddbmm, matmul with batches on mat2): the batch dimensions
            broadcast as torch broadcasts them, each product computed with the batched call's configuration."""
            import math
            lead = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
            count = math.prod(lead)
            a3 = a.expand(*lead, m, k).reshape(count, m, k)
            b3 = b.expand(*lead, k, n).reshape(count, k, n)
            c3 = None if c is None else c.expand(*lead, m, n).reshape(count, m, n)
            outs = [self._run(op, a3[i], b3[i], None if c3 is None else c3[i], alpha=alpha, beta=beta, batch=count)
                    for i in range(count)]
            if not outs:
                return torch.empty(*lead, m, n, dtype=a.dtype, device=a.device)
            return torch.stack(outs).reshape(*lead, m, n)

        def _dispatch(self, func, args, kwargs):
            F = torch.nn.functional
            if func in (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__):
                return self._matmul(args[0], args[1])
            if func in (torch.mm, torch.Tensor.mm):
                return self._run("matmul", args[0], args[1])
            if func in (torch.bmm, torch.Tensor.bmm):
                return self._batched("matmul", args[0], args[1])
            if func in (torch.baddbmm, torch.Tensor.baddbmm):
                return self._batched("addmm", args[1], args[2], args[0], alpha=kwargs.get("alpha", 1.0),
                                     beta=kwargs.get("beta", 1.0))
            if func in (torch.addmm, torch.Tensor.addmm):
                input, mat1, mat2 = args[:3]
                if input.dim() == 1 and input.shape[0] != mat2.shape[1]:
                    input = input.expand(mat2.shape[1])
                return self._run("addmm", mat1, mat2, input, alpha=kwargs.get("alpha", 1.0),
                                 beta=kwargs.get("beta", 1.0))
            if func is F.linear:
                x, weight = args[0], args[1]
                bias = args[2] if len(args) > 2 else kwargs.get("bias")
                if bias is not None and not (x.dim() == 2 or (x.dim() == 3 and x.is_contiguous())):
                    # aten's linear folds only a 2-D or contiguous 3-D input into addmm with the bias; the
                    # other forms are matmul, then the bias added by an elementwise kernel (native here too)
                    return self._matmul(x, weight.t()) + bias
                if x.dim() == 1:
                    return self._matmul(x, weight.t())
                return self._run("linear", x, weight.t(), bias)
            if func is torch._scaled_mm:
                names = ["mat1", "mat2", "scale_a", "scale_b", "bias", "scale_result", "out_dtype", "use_fast_accum"]
                a = dict(zip(names, args))
                a.update(kwargs)
                if a.get("bias") is not None or a.get("scale_result") is not None or a.get("out_dtype") is None:
                    raise _Unsupported("_scaled_mm with a bias, a scale_result or no out_dtype")
                if a["scale_a"].numel() != 1 or a["scale_b"].numel() != 1:
                    raise _Unsupported("_scaled_mm with other than per-tensor scales")
                return self._run("scaled_mm", a["mat1"], a["mat2"], scale_a=a["scale_a"], scale_b=a["scale_b"],
                                 out_dtype=a["out_dtype"], fast_accum=bool(a.get("use_fast_accum", False)))
            return NotImplemented

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            try:
                out = self._dispatch(func, args, kwargs)
            except _Unsupported as why:
                name = getattr(func, "__name__", str(func))
                if strict:
                    raise InputError(f"mmaemu.torch.emulate({profile!r}): {name}: {why}") from None
                warnings.warn(f"mmaemu: {name} runs natively: {why}", stacklevel=3)
                out = NotImplemented
            except InputError as why:  # the library model declines the call (a kernel without rules, ...)
                if strict:
                    raise
                warnings.warn(f"mmaemu: {getattr(func, '__name__', str(func))} runs natively: {why}", stacklevel=3)
                out = NotImplemented
            if out is NotImplemented:
                return func(*args, **kwargs)
            return out

    return _Emulate()


class _LibraryLog:
    """cuBLASLt's log of this process, collected through its logger callback (cublasLtLoggerSetCallback at
    level 2: one trace line per API call with its descriptors and algorithm), from the libcublasLt torch
    loaded; its file output sent to /dev/null while collecting. Lines since the last clear() in .lines."""

    def __init__(self, torch):
        import ctypes
        import ctypes.util
        # torch loads cuBLAS(Lt) on its first matmul: make one, then find the library in this process.
        a = torch.ones(2, 2, device="cuda")
        torch.mm(a, a)
        torch.cuda.synchronize()
        path = next((line.split()[-1] for line in open("/proc/self/maps") if "libcublasLt.so" in line), None)
        if path is None:
            raise InputError("mmaemu.torch.capture: this process has not loaded libcublasLt (torch's CUDA build "
                             "loads it for its matmuls)")
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.lines: list[str] = []
        callback_t = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)
        self._callback = callback_t(self._on_line)  # kept alive while installed
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.fopen.restype = ctypes.c_void_p
        self._null = libc.fopen(b"/dev/null", b"w")
        self.lib.cublasLtLoggerSetFile(ctypes.c_void_p(self._null))
        self.lib.cublasLtLoggerSetCallback(self._callback)
        self.lib.cublasLtLoggerSetLevel(2)
        version = self.lib.cublasLtGetVersion
        version.restype = ctypes.c_size_t
        self.version = int(version())

    def _on_line(self, level, function, message):
        self.lines.append(f"[{(function or b'').decode(errors='replace')}] {(message or b'').decode(errors='replace')}")

    def close(self):
        self.lib.cublasLtLoggerSetLevel(0)
        self.lib.cublasLtLoggerSetCallback(None)


def capture(path, profile: str = "cublaslt-h200", *, tf32: bool | None = None, workspace: int | None = None):
    """A context manager that runs the model natively on its CUDA GPU and writes, at the block's end, a
    capture of its GEMM calls (mmaemu-capture/1, the README's "Captures"): each call as cuBLASLt saw it,
    described as emulate() describes it (so that emulate(calls=path) finds it), with the configuration the
    library ran for it, read from cuBLASLt's own log (its logger callback) and checked against the call's
    descriptors; the library version, the GPU, its SM count and torch's version in the header.

        with mmaemu.torch.capture("llama.jsonl"):
            logits = model(tokens)                  # on the GPU, as usual
        with mmaemu.torch.emulate(calls="llama.jsonl"):
            logits_cpu = model_cpu(tokens)          # each call with the configuration captured for it

    A call emulate() would refuse, or whose log line is missing or names other shapes, is left out and
    counted in the header's "source" (emulate(strict=True, calls=...) then refuses it by name). The file
    is written whole or not at all (a temporary file renamed)."""
    import contextlib
    import json
    import os

    import torch
    from torch.overrides import TorchFunctionMode

    from ._cublaslt_log import config_of, matmul_line, shape_mismatch

    @contextlib.contextmanager
    def _capture():
        log = _LibraryLog(torch)
        described: list = []
        describe = emulate(profile, "cpu", strict=True, tf32=tf32, workspace=workspace, progress=False,
                           _describe=described)
        entries: dict = {}
        left_out: dict = {}

        def leave_out(why):
            left_out[why] = left_out.get(why, 0) + 1

        conflicting: set = set()

        def remember(call, entry):
            """One entry per call as the library saw it; a call the library ran with two configurations is
            left out (its replay would have to guess which)."""
            key = json.dumps(call, sort_keys=True)
            if key in conflicting:
                return
            if key in entries and entries[key]["config"] != entry["config"]:
                del entries[key]
                conflicting.add(key)
                leave_out("one call run with two configurations")
                return
            entries.setdefault(key, entry)

        class _Capture(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                log.lines.clear()
                out = func(*args, **kwargs)  # natively
                lines = list(log.lines)
                described.clear()
                try:
                    handled = describe._dispatch(func, args, kwargs)
                except (_Unsupported, InputError) as why:
                    leave_out(f"{getattr(func, '__name__', func)}: {str(why)[:120]}")
                    return out
                if handled is NotImplemented:
                    return out  # not a matmul
                calls = {json.dumps(c, sort_keys=True): c for c in described if c["m"] and c["n"] and c["k"]}
                if len(calls) != 1:
                    if calls:
                        leave_out("one torch call, several library calls")
                    return out
                call = next(iter(calls.values()))
                line = matmul_line("\n".join(lines))
                if line is None:
                    leave_out("no matmul in cuBLASLt's log")
                elif shape_mismatch(line, call):
                    leave_out("the log's descriptors are another call")
                else:
                    remember(call, {"op": getattr(func, "__name__", str(func)), "call": call, "config": config_of(line)})
                return out

        try:
            with _Capture():
                yield
        finally:
            log.close()
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        import hashlib
        header = {"schema": "mmaemu-capture/1",
                  "library": {"name": "cublasLt", "version": log.version,
                              "sha256": hashlib.sha256(open(log.path, "rb").read()).hexdigest()},
                  "gpu": {"name": props.name, "sm_count": props.multi_processor_count},
                  "torch": torch.__version__,
                  "source": f"mmaemu.torch.capture: {len(entries)} calls; left out: {left_out or 'none'}"}
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(header, separators=(",", ":")) + "\n")
            for e in entries.values():
                f.write(json.dumps(e, separators=(",", ":")) + "\n")
        os.replace(tmp, path)

    return _capture()
