#!/usr/bin/env python3
"""Writes the plan of the PyTorch fixture (fixtures/torch-h200/plan.yaml): the calls torch.matmul,
torch.addmm, torch.nn.functional.linear and torch._scaled_mm make, described as cuBLASLt sees them.

A row-major framework computes D[m][n] = X[m][k] W[k][n] as the library's column-major D^T = W^T X^T:
the library's A is torch's W, its B is torch's X, and the library's M and N are torch's n and m. So a
torch shape (m, n, k) is the library call n x m x k, in the layout torch's call reaches it in:
matmul and addmm NN (W row-major), linear TN (the weight W[n][k]), _scaled_mm TN (mat2 column-major),
with torch's scale_a applying to the library's B. In mmaemu's row-major contract that call's operands
are A'[n][k] = W^T, B'[k][m] = X^T and C'[n][m] = C^T, and its D' = D^T; run.py builds torch's
operands from them, assemble.py writes torch's D back the same way.

The group name's first word is the torch operation (run.py reads it).

    python3 scripts/torch_fixture/plan.py > fixtures/torch-h200/plan.yaml
    python3 scripts/torch_fixture/plan.py heuristic > fixtures/torch-h200/plan-heuristic.yaml

`heuristic` writes the same calls as questions to cuBLASLt's heuristic alone (table_only), with the
workspace limits a client may give (32 MiB, 4 MiB, 1 MiB), to see which one torch's choices follow.
"""
import sys

# torch (m, n, k): decode (m = 1, 4, 16), square, skinny, long K, sizes no multiple of 8. Every D holds at
# most 16,384 outputs, so that the fixture stores every D whole and stays small.
SHAPES = [(1, 4096, 4096), (4, 4096, 11008), (16, 1024, 4096), (128, 128, 128), (96, 80, 512), (64, 64, 4096),
          (16, 256, 8192), (100, 150, 1000), (33, 65, 130), (64, 256, 512), (64, 128, 16384), (8, 8, 16384),
          (32, 512, 2048)]
# _scaled_mm: K and the mat2 dimensions (the library's M and K) multiples of 16.
FP8_SHAPES = [(1, 4096, 4096), (16, 1024, 1024), (128, 128, 128), (96, 80, 512), (64, 64, 4096), (96, 160, 1024),
              (16, 1024, 11008), (64, 256, 512)]
TYPES = ["bf16 bf16 bf16 32F", "fp16 fp16 fp16 32F", "fp32 fp32 fp32 32F", "tf32 tf32 fp32 32F_FAST_TF32"]
# library A B D (A = torch mat2, B = torch mat1): e4m3 x e4m3 to bf16 and fp32; torch e5m2 mat1 x e4m3 mat2
FP8_TYPES = ["e4m3 e4m3 bf16 32F", "e4m3 e4m3 fp32 32F", "e4m3 e5m2 bf16 32F"]


def library_shape(m, n, k):
    return f"{n}x{m}x{k}"


HEURISTIC_ONLY = ["run: false", "table_only: true", "workspaces: [0, 4194304, 1048576]"]


def group(name, types, shapes, scalars, layout, extra=()):
    if sys.argv[1:] == ["heuristic"]:
        extra = list(extra) + HEURISTIC_ONLY
    return [f"  - name: {name}",
            "    types: [" + ", ".join(f'"{t}"' for t in types) + "]",
            "    shapes: [" + ", ".join(library_shape(*s) for s in shapes) + "]",
            "    scalars: [" + ", ".join(f'"{s}"' for s in scalars) + "]",
            "    families: [realistic]",
            f"    layouts: [{layout}]"] + [f"    {e}" for e in extra]


def main():
    out = ["plan: h200-torch" + ("-heuristic" if sys.argv[1:] == ["heuristic"] else ""),
           "description: >-",
           "  PyTorch 2.11's matmuls on an H200 as cuBLASLt sees them (written by scripts/torch_fixture/plan.py):",
           "  torch.matmul and torch.addmm (NN), torch.nn.functional.linear (TN) in bf16, fp16, fp32 and tf32,",
           "  and torch._scaled_mm (TN) with per-tensor scales, fast accumulation on and off. The library's A",
           "  is torch's second operand, its M and N are torch's n and m.",
           "seed: 2011",
           "heuristic_results: 1",
           "groups:"]
    out += group("matmul", TYPES, SHAPES, ["1 0"], "NN")
    out += group("addmm", TYPES, SHAPES, ["-1.25 0.75"], "NN")
    out += group("linear", TYPES, SHAPES, ["1 0"], "TN")
    # library scale_a is torch's scale_b (mat2), library scale_b torch's scale_a
    out += group("scaled_mm", FP8_TYPES, FP8_SHAPES, ["1 0"], "TN",
                 ['scales: ["2 0.5", "0.375 1.5"]', "fast_accum: [false, true]"])
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
