#!/usr/bin/env python3
"""The CPU's own sgemm (numpy's float32 matmul, on the BLAS numpy links: OpenBLAS in its wheels), for T6's
library section: what a user compares the library model's cpu engine with (bench/cpu/cpu_blas.hpp).

Times --repetitions products of an M x K by a K x N float32 matrix of normal values after one untimed
product, for each --shape, on the threads the parent allows (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and
MKL_NUM_THREADS, set by the parent before this interpreter starts, which is when the BLAS reads them).
Writes --out (JSON, atomically): {"seconds": {"MxNxK": [...]}, "numpy": version, "blas": name, "python": version}.

Exit status: 0 measured; 3 numpy cannot be imported (the reason is the last line on stderr, and in --out
as "skipped"); 2 bad use.
"""
import argparse
import json
import os
import platform
import sys
import time


def write_json(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(path + ".tmp", path)


def blas_name(np):
    try:
        deps = np.show_config(mode="dicts")["Build Dependencies"]
        return deps["blas"]["name"] + " " + str(deps["blas"].get("version", ""))
    except Exception:  # older numpy: no dict form
        return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shape", action="append", required=True, help="MxNxK; repeat for several")
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    try:
        import numpy as np
    except ImportError as e:
        why = f"numpy is not importable here ({e}); install with: pip install numpy"
        write_json(args.out, {"skipped": why})
        print(why, file=sys.stderr)
        return 3
    rng = np.random.default_rng(1)
    seconds = {}
    for shape in args.shape:
        try:
            m, n, k = (int(x) for x in shape.split("x"))
        except ValueError:
            print(f"bad shape {shape!r}: MxNxK", file=sys.stderr)
            return 2
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        a @ b
        times = []
        for _ in range(args.repetitions):
            start = time.perf_counter()
            a @ b
            times.append(time.perf_counter() - start)
        seconds[shape] = times
    write_json(args.out, {"seconds": seconds, "numpy": np.__version__, "blas": blas_name(np),
                          "python": platform.python_version()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
