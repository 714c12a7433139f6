#!/usr/bin/env bash
# v5: GPU correctness, rates, and Nsight Compute per-line counts.

source "$(dirname "$0")/device-env.sh"
S gputest 200 $W/kernels_v4_tc_gpu_test --gtest_filter='*v5*:*Shapes*:*Declines*'
grep -v "^\[       OK\|^\[ RUN" /tmp/gputest.log | tail -c 30000 > "$O/gputest.log"
S v5 150 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend v5 --format fp16 --format bf16 --format tf32 --format e4m3 --shape 4096x4096x4096 --shape 16x4096x4096 --shape 1x4096x11008 --commit "$(cat $W/commit)" --json "$O/v5.json" --markdown "$O/v5.md"
grep -E "^\| [0-9]" "$O/v5.md" >> "$O/steps.txt"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
S ncu-v5 240 $ncu --kernel-name regex:wide_gemm --launch-count 1 --set full --import-source no -o /tmp/v5prof $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend v5 --no-native --format fp16 --shape 2048x2048x2048
$ncu -i /tmp/v5prof.ncu-rep --page source --csv --print-source sass > "$O/v5-sass.csv" 2> "$O/v5-sass.err"
$ncu -i /tmp/v5prof.ncu-rep --page details --print-details all > "$O/v5-details.txt" 2>&1
exit 0
