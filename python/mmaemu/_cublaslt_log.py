"""cuBLASLt's log (CUBLASLT_LOG_LEVEL=2, or its logger callback) read as mmaemu reads it: the matmul line
of a call, the configuration it names, and whether its operand descriptors are the call mmaemu describes.
The one reader of these lines: mmaemu.torch.capture and the scripts that build fixtures and captures
from a GPU run's log (scripts/torch_fixture) use it."""
from __future__ import annotations

import re

REDUCTION = {"REDUCTION_SCHEME_NONE": 0, "REDUCTION_SCHEME_INPLACE": 1, "REDUCTION_SCHEME_COMPUTE_TYPE": 2,
             "REDUCTION_SCHEME_OUTPUT_TYPE": 4}


def field(text: str, key: str, default=None):
    m = re.search(key + r"=([^ \]]+)", text)
    return m.group(1) if m else default


def matmul_line(text: str):
    """The last line of `text` that logs a matmul with its algorithm (cublasLtMatmul, cublasLtTSTMatmul), or None."""
    lines = [l for l in text.splitlines() if "Matmul]" in l and "algoId" in l]
    return lines[-1] if lines else None


def config_of(line: str) -> dict:
    """The algorithm configuration a log line names (the fields an LtAlgoConfig holds)."""
    algo = re.search(r"algo=\[([^\]]*)\]", line).group(1)
    return {"algo_id": int(field(algo, "algoId")), "tile": 0, "stages": 0,
            "split_k": int(field(algo, "numSplitsK", "1")),
            "reduction": REDUCTION[field(algo, "reductionScheme", "REDUCTION_SCHEME_NONE")],
            "swizzle": int(field(algo, "ctaSwizzling", "0")), "custom": int(field(algo, "customOption", "0")),
            "inner_shape": 0, "cluster": 0, "workspace": int(field(line, "workSpaceSizeInBytes", "0")),
            "tile_name": field(algo, "tile", "MATMUL_TILE_UNDEFINED").replace("MATMUL_TILE_", ""),
            "stages_name": field(algo, "stages", "MATMUL_STAGES_UNDEFINED").replace("MATMUL_STAGES_", "")}


def shape_mismatch(line: str, call: dict):
    """Why the log line's A and D descriptors are not the call's (library view: m, n, k, layout), or None."""
    a = re.search(r"Adesc=\[[^\]]*rows=(\d+) cols=(\d+)", line).groups()
    d = re.search(r"Ddesc=\[[^\]]*rows=(\d+) cols=(\d+)", line).groups()
    M, N, K = call["m"], call["n"], call["k"]
    a_expected = (str(K), str(M)) if call.get("layout", "TN") == "TN" else (str(M), str(K))
    if a != a_expected or d != (str(M), str(N)):
        return f"log line does not match call {M}x{N}x{K} {call.get('layout', 'TN')}: A {a}, D {d}"
    return None
