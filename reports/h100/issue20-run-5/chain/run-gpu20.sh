#!/usr/bin/env bash
# v5's chain: each product one fma rounded down into the output's running sum (its sign set by one
# logic operation), the fp32 addend read directly, the uncommon cases out of line. Correctness on
# the GPU against the reference, then the rates beside v4 and cuBLASLt.
source "$(dirname "$0")/device-env.sh"
S gputest 200 $W/kernels_v4_tc_gpu_test --gtest_filter='*v5*:*Shapes*:*Declines*'
grep -v "^\[       OK\|^\[ RUN" /tmp/gputest.log | tail -c 30000 > "$O/gputest.log"
S v5 150 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend v5 --backend v4 --format fp16 --format bf16 --format tf32 --format e4m3 --shape 4096x4096x4096 --commit "$(cat $W/commit)" --json "$O/v5.json" --markdown "$O/v5.md"
grep -E "^\| [0-9]" "$O/v5.md" >> "$O/steps.txt"
S v5decode 60 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend v5 --format fp16 --shape 16x4096x4096 --shape 1x4096x11008 --commit "$(cat $W/commit)" --json "$O/v5-decode.json" --markdown "$O/v5-decode.md"
grep -E "^\| [0-9]" "$O/v5-decode.md" >> "$O/steps.txt"
S t3quick 150 $W/mmaemu run tiers/T3.yaml --suite t3-gpu-quick --suite t3-gpu-quick-large --quiet --report-dir "$O" --report-stem t3quick
tail -c 3000 /tmp/t3quick.log > "$O/t3quick.log"
exit 0
