#!/usr/bin/env bash
# What ran on the H200 for the library resolver and the PyTorch fixture (2026-12-04, commit 8011f39),
# from the repository root with a built `mmaemu` (MMAEMU) and PyTorch 2.11 in python3.
set -uo pipefail
M=${MMAEMU:-build/harness/cli/mmaemu}
# the heuristic asked for its first choice (nothing runs): random training and held-out shapes
$M record --cublaslt fixtures/cublaslt-h200/plan-heuristic-dense.yaml --out /tmp/dense              # 32 s
$M record --cublaslt fixtures/cublaslt-h200/plan-heuristic-dense-more.yaml --out /tmp/more         # 60 s
$M record --cublaslt fixtures/torch-h200/plan-heuristic.yaml --out /tmp/torch-heuristic            # 1 s
# the kernels the library model has no rules for, run on probes (kept for modelling them)
$M record --cublaslt fixtures/cublaslt-h200/plan-algos.yaml --out /tmp/algos                       # 100 s
# PyTorch's calls: mmaemu writes the operands, torch runs them, cuBLASLt logs each configuration
$M record --cublaslt fixtures/torch-h200/plan.yaml --inputs-only --out /tmp/torch                  # 143 s
CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=/tmp/torch/lt-log.txt python3 scripts/torch_fixture/run.py /tmp/torch  # 9 s
# then, on any machine: python3 scripts/torch_fixture/assemble.py /tmp/torch fixtures/torch-h200 --commit 8011f39...
