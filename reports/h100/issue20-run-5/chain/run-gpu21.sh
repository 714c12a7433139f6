#!/usr/bin/env bash
# Nsight Compute on v5's fp16 kernel at 2048^3: where the instructions and stalls are, per SASS line.
source "$(dirname "$0")/device-env.sh"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
S ncu-v5 240 $ncu --kernel-name regex:wide_gemm --launch-count 1 --set full --import-source no -o /tmp/v5prof $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend v5 --no-native --format fp16 --shape 2048x2048x2048
$ncu -i /tmp/v5prof.ncu-rep --page source --csv --print-source sass > "$O/v5-sass.csv" 2> "$O/v5-sass.err"
$ncu -i /tmp/v5prof.ncu-rep --page details --print-details all > "$O/v5-details.txt" 2>&1
exit 0
