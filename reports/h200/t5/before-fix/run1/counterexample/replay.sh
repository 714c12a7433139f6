#!/bin/sh
# Replays the counterexample of library-engines-equal-reference/cuda (seed 16644388246427104474).
set -e
MMAEMU=${MMAEMU:-/work/main/build/harness/cli/mmaemu}
"$MMAEMU" gemm --library cublaslt-h200 --a-type tf32 --b-type tf32 --d-type fp16 --alpha 1.000000 --beta -0.500000 --algo /root/out/r/run1/properties/T5.t5-gpu/library-engines-equal-reference_cuda/algo.json --a /root/out/r/run1/properties/T5.t5-gpu/library-engines-equal-reference_cuda/a.npy --b /root/out/r/run1/properties/T5.t5-gpu/library-engines-equal-reference_cuda/b.npy --c /root/out/r/run1/properties/T5.t5-gpu/library-engines-equal-reference_cuda/c.npy --out /root/out/r/run1/properties/T5.t5-gpu/library-engines-equal-reference_cuda/d-cuda.npy --backend cuda
