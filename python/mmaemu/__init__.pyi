import os
from typing import Any, Literal, Optional, Sequence, Union

import numpy as np

from . import torch as torch

ArrayLike = Any  # numpy.ndarray or torch.Tensor: a float dtype of the format, or raw bits
Backend = str    # "reference", "host", "auto", "simt", "tiled", "tc", "cuda" (mmaemu.info()["backends"])
TorchOp = Literal["matmul", "addmm", "linear", "scaled_mm"]

__version__: str
DEFAULT_WORKSPACE: int
CERTAINTY_GATE: float

class InputError(ValueError): ...
class KernelError(RuntimeError): ...

def instruction(arch: str, instr: str) -> dict[str, Any]: ...
def mma(arch: str, instr: str, a: ArrayLike, b: ArrayLike, c: ArrayLike, *, scale_a: Optional[ArrayLike] = None,
        scale_b: Optional[ArrayLike] = None, backend: Backend = "reference") -> ArrayLike: ...
def gemm(arch: str, instr: str, a: ArrayLike, b: ArrayLike, c: Optional[ArrayLike] = None, *,
         scale_a: Optional[ArrayLike] = None, scale_b: Optional[ArrayLike] = None, backend: Backend = "reference",
         trace: bool = False) -> Union[ArrayLike, tuple[ArrayLike, ArrayLike]]: ...
def library_gemm(a: ArrayLike, b: ArrayLike, c: Optional[ArrayLike] = None, *, profile: str = "cublaslt-h200",
                 a_type: Optional[str] = None, b_type: Optional[str] = None, d_type: Optional[str] = None,
                 alpha: float = 1.0, beta: float = 0.0, scale_a: Optional[Union[float, ArrayLike]] = None,
                 scale_b: Optional[Union[float, ArrayLike]] = None, fast_accum: bool = False,
                 algo: Union[Literal["auto"], dict[str, Any]] = "auto", layout: Literal["TN", "NN", "NT"] = "TN",
                 workspace: int = ..., backend: Literal["reference", "host", "cpu", "cuda"] = "reference",
                 min_certainty: Optional[float] = None, calls: Optional[Union[str, "os.PathLike[str]"]] = None,
                 force_capture: bool = False) -> ArrayLike: ...
def torch_gemm(op: TorchOp, mat1: ArrayLike, mat2: ArrayLike, input: Optional[ArrayLike] = None, *,
               profile: str = "cublaslt-h200", mat1_type: Optional[str] = None, mat2_type: Optional[str] = None,
               out_type: Optional[str] = None, alpha: float = 1.0, beta: float = 0.0,
               scale_a: Optional[Union[float, ArrayLike]] = None, scale_b: Optional[Union[float, ArrayLike]] = None,
               fast_accum: bool = False, workspace: Optional[int] = None,
               backend: Literal["reference", "host", "cpu", "cuda"] = "reference",
               min_certainty: Optional[float] = None, mat2_transposed: bool = False, batch: int = 1,
               rows: Optional[Sequence[int]] = None, algo: Optional[dict[str, Any]] = None,
               mat1_transposed: bool = False, calls: Optional[Union[str, "os.PathLike[str]"]] = None,
               force_capture: bool = False) -> ArrayLike: ...
def resolve(m: int, n: int, k: int, *, a_type: str, b_type: str, d_type: str, profile: str = "cublaslt-h200",
            layout: str = "TN", workspace: Optional[int] = None, alpha: float = 1.0, beta: float = 0.0,
            scale_a: Optional[float] = None, scale_b: Optional[float] = None, fast_accum: bool = False,
            torch_op: str = "", calls: Optional[Union[str, "os.PathLike[str]"]] = None, force_capture: bool = False,
            batch: int = 1, bias: bool = False, mat2_transposed: bool = False,
            mat1_transposed: bool = False) -> dict[str, Any]: ...
def info(arch: Optional[str] = None, every_n: bool = False) -> dict[str, Any]: ...
