#!/usr/bin/env python3
"""Writes the plan of a dense sweep of cuBLASLt's heuristic (heuristic-only, table_only groups).

The sweep asks cublasLtMatmulAlgoGetHeuristic for its first choice over the types PyTorch and the
library model use, the layouts a row-major framework reaches the library in (TN, NN, NT; FP8: TN, the
only one Hopper takes), two workspace limits (the session's 32 MiB, as cuBLAS gives it, and 1 MiB, as
PyTorch's own cuBLASLt path does) and beta 0 and 1, on a grid of shapes (powers of two, and sizes that
are none) for fitting, and on log-uniform random shapes for holding the fit against queries it never saw.

    python3 scripts/cublaslt_heuristic_plan.py > fixtures/cublaslt-h200/plan-heuristic.yaml
    mmaemu record --cublaslt fixtures/cublaslt-h200/plan-heuristic.yaml --out DIR   # on the GPU

The grid is too coarse to fit a resolver on (a first look found the heuristic is not piecewise constant
on it), so `dense` writes the second sweep the resolver is fitted from: random shapes (half of them
log-uniform integers, half rounded to multiples of 8, as framework shapes mostly are) for training,
and a separate random set, drawn with another seed, held back from the fit.

    python3 scripts/cublaslt_heuristic_plan.py dense > fixtures/cublaslt-h200/plan-heuristic-dense.yaml

The fit's agreement grew by about 3 points per doubling of the training shapes, so `dense-more` adds
32,000 more training shapes (another seed) for the non-FP8 types, where the fit erred most.

    python3 scripts/cublaslt_heuristic_plan.py dense-more > fixtures/cublaslt-h200/plan-heuristic-dense-more.yaml
`dense-third` adds 48,000 training shapes more (a fourth seed, K from 1 as users draw it), and
`certainty` two held-out sets drawn as users draw shapes (M, N, K log-uniform from 1 to 16384, half of
them unrounded): one to choose the certainty below which the resolver refuses (calibration), one,
never looked at while choosing, to report what that gate gives (check).
    python3 scripts/cublaslt_heuristic_plan.py dense-third > fixtures/cublaslt-h200/plan-heuristic-dense-third.yaml
    python3 scripts/cublaslt_heuristic_plan.py certainty > fixtures/cublaslt-h200/plan-heuristic-certainty.yaml
`batched` asks for strided batched calls (torch.bmm, baddbmm, 3-D and 4-D matmul as cuBLAS runs them:
32 MiB workspace, the four types whose D is their input's), one group per batch count from 2 to 64, each
with its own user-like shapes (K from 1, half unrounded): training groups, and held-out groups drawn
with other seeds that the batched resolver is judged on.
    python3 scripts/cublaslt_heuristic_plan.py batched > fixtures/cublaslt-h200/plan-heuristic-batched.yaml
"""
import math
import random
import sys

TYPES = ["bf16 bf16 bf16 32F", "bf16 bf16 fp32 32F", "fp16 fp16 fp16 32F", "fp16 fp16 fp32 32F",
         "fp32 fp32 fp32 32F", "tf32 tf32 fp32 32F_FAST_TF32"]
FP8_TYPES = ["e4m3 e4m3 bf16 32F", "e4m3 e4m3 fp32 32F", "e5m2 e4m3 bf16 32F"]
DENSE_FP8_TYPES = FP8_TYPES + ["e4m3 e5m2 bf16 32F"]  # e4m3 x e5m2: torch's e5m2 mat1 as the library sees it
WORKSPACES = [0, 1048576]
POW2_MN = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]
POW2_K = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]
ODD_MN = [3, 24, 100, 1000, 3000, 11008]
ODD_K = [24, 100, 1000, 11008]


def group(name, types, fp8, shapes=None, grid=None):
    lines = [f"  - name: {name}", "    types: [" + ", ".join(f'"{t}"' for t in types) + "]"]
    if grid:
        m, n, k = grid
        lines.append(f"    shape_grid: {{M: {m}, N: {n}, K: {k}}}")
    else:
        lines.append("    shapes: [" + ", ".join(shapes) + "]")
    lines += ['    scalars: ["1 0", "1 1"]', "    families: [realistic]", "    run: false", "    table_only: true",
              f"    workspaces: {WORKSPACES}"]
    if fp8:
        lines += ["    fast_accum: [false, true]", "    layouts: [TN]"]
    else:
        lines.append("    layouts: [TN, NN, NT]")
    return lines


def random_shapes(seed, count, k_from=16):
    """`count` shapes: half log-uniform integers (M, N 1 ... 16384; K k_from ... 16384), half rounded to 8."""
    rng = random.Random(seed)

    def log_uniform(lo, hi, multiple):
        x = int(round(2 ** rng.uniform(math.log2(lo), math.log2(hi))))
        return max(multiple, x // multiple * multiple)

    shapes = set()
    while len(shapes) < count:
        multiple = 1 if len(shapes) % 2 == 0 else 8
        shapes.add(f"{log_uniform(1, 16384, multiple)}x{log_uniform(1, 16384, multiple)}x{log_uniform(k_from, 16384, multiple)}")
    return sorted(shapes)


def dense():
    out = ["plan: h200-cublaslt-heuristic-dense",
           "description: >-",
           "  cuBLASLt's heuristic asked for its first choice (nothing runs) on random shapes: a training set",
           "  the resolver is fitted from, and a test set drawn with another seed, held back from the fit.",
           "  Written by scripts/cublaslt_heuristic_plan.py dense.",
           "seed: 2027",
           "heuristic_results: 1",
           "groups:"]
    for prefix, types, fp8 in (("", TYPES, False), ("fp8-", DENSE_FP8_TYPES, True)):
        for name, seed, count in (("train", 20261205, 8000), ("test", 977, 1000)):
            lines = group(f"{prefix}{name}", types, fp8, shapes=random_shapes(seed, count))
            out += [l.replace('scalars: ["1 0", "1 1"]', 'scalars: ["1 0"]') for l in lines]
    sys.stdout.write("\n".join(out) + "\n")


def dense_more():
    out = ["plan: h200-cublaslt-heuristic-dense-more",
           "description: >-",
           "  More random training shapes for the resolver (non-FP8 types), drawn with a third seed.",
           "  Written by scripts/cublaslt_heuristic_plan.py dense-more.",
           "seed: 2028",
           "heuristic_results: 1",
           "groups:"]
    lines = group("train2", TYPES, False, shapes=random_shapes(31337, 32000))
    out += [l.replace('scalars: ["1 0", "1 1"]', 'scalars: ["1 0"]') for l in lines]
    sys.stdout.write("\n".join(out) + "\n")


def dense_third():
    out = ["plan: h200-cublaslt-heuristic-dense-third",
           "description: >-",
           "  48,000 more random training shapes for the resolver (non-FP8 types; K from 1), a fourth seed.",
           "  Written by scripts/cublaslt_heuristic_plan.py dense-third.",
           "seed: 2029",
           "heuristic_results: 1",
           "groups:"]
    lines = group("train3", TYPES, False, shapes=random_shapes(4711, 48000, k_from=1))
    out += [l.replace('scalars: ["1 0", "1 1"]', 'scalars: ["1 0"]') for l in lines]
    sys.stdout.write("\n".join(out) + "\n")


def certainty():
    out = ["plan: h200-cublaslt-heuristic-certainty",
           "description: >-",
           "  Two held-out sets of shapes drawn as users draw them (K from 1), each in every type: one to",
           "  choose the resolver's certainty gate on (calibration), one to report the gate on (check).",
           "  Written by scripts/cublaslt_heuristic_plan.py certainty.",
           "seed: 2030",
           "heuristic_results: 1",
           "groups:"]
    for name, seed in (("calibration-held-out", 8191), ("check-held-out", 131071)):
        shapes = random_shapes(seed, 3000, k_from=1)
        for prefix, types, fp8 in (("", TYPES, False), ("fp8-", DENSE_FP8_TYPES, True)):
            lines = group(f"{prefix}{name}", types, fp8, shapes=shapes)
            out += [l.replace('scalars: ["1 0", "1 1"]', 'scalars: ["1 0"]') for l in lines]
    sys.stdout.write("\n".join(out) + "\n")


BATCHED_TYPES = ["bf16 bf16 bf16 32F", "fp16 fp16 fp16 32F", "fp32 fp32 fp32 32F", "tf32 tf32 fp32 32F_FAST_TF32"]
BATCH_COUNTS = [2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64]


def batched():
    out = ["plan: h200-cublaslt-heuristic-batched",
           "description: >-",
           "  The heuristic's answers for strided batched calls as PyTorch makes them (workspace limits 32 MiB and 1 byte; TN, NN,",
           "  NT), one group per batch count, for fitting a batched resolver (train) and judging it on shapes",
           "  drawn with other seeds (test). Written by scripts/cublaslt_heuristic_plan.py batched.",
           "seed: 2031",
           "heuristic_results: 1",
           "groups:"]
    for i, batch in enumerate(BATCH_COUNTS):
        for name, seed, count in (("train", 7000 + i, 4000), ("test", 9000 + i, 500)):
            out += [f"  - name: batched{batch}-{name}",
                    "    types: [" + ", ".join(f'"{t}"' for t in BATCHED_TYPES) + "]",
                    "    shapes: [" + ", ".join(random_shapes(seed, count, k_from=1)) + "]",
                    '    scalars: ["1 0"]', "    families: [realistic]", "    run: false", "    table_only: true",
                    "    layouts: [TN, NN, NT]", "    workspaces: [33554432, 1]", f"    batches: [{batch}]",
                    "    epilogues: [none]"]
    sys.stdout.write("\n".join(out) + "\n")


def main():
    if sys.argv[1:] == ["batched"]:
        return batched()
    if sys.argv[1:] == ["dense-third"]:
        return dense_third()
    if sys.argv[1:] == ["certainty"]:
        return certainty()
    if sys.argv[1:] == ["dense"]:
        return dense()
    if sys.argv[1:] == ["dense-more"]:
        return dense_more()
    rng = random.Random(20261204)

    def log_uniform(lo, hi):
        return int(round(2 ** rng.uniform(__import__("math").log2(lo), __import__("math").log2(hi))))

    held_out = sorted({f"{log_uniform(1, 16384)}x{log_uniform(1, 16384)}x{log_uniform(16, 16384)}" for _ in range(300)})
    out = ["plan: h200-cublaslt-heuristic",
           "description: >-",
           "  cuBLASLt's heuristic asked for its first choice (nothing runs): a grid of shapes to fit the",
           "  resolver on, and log-uniform random shapes held back to test it. Written by",
           "  scripts/cublaslt_heuristic_plan.py.",
           "seed: 2026",
           "heuristic_results: 1",
           "groups:"]
    for name, types, fp8 in (("", TYPES, False), ("fp8-", FP8_TYPES, True)):
        out += group(f"{name}grid-pow2", types, fp8, grid=(POW2_MN, POW2_MN, POW2_K))
        out += group(f"{name}grid-odd", types, fp8, grid=(ODD_MN, ODD_MN, ODD_K))
        out += group(f"{name}held-out", types, fp8, shapes=held_out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
