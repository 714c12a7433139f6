#!/usr/bin/env bash
# The epilogue's shortcut moved out of arith::convert: v5's rates at 4096^3 (tf32 had dropped with a
# spill), the library engine's GPU tests, T6's library section.
source "$(dirname "$0")/device-env.sh"
S v5 60 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend v5 --format fp16 --format tf32 --format e4m3 --shape 4096x4096x4096 --commit "$(cat $W/commit)" --json "$O/v5.json" --markdown "$O/v5.md"
grep -E "^\| [0-9]" "$O/v5.md" >> "$O/steps.txt"
S libtest 60 $W/kernels_library_gemm_test --gtest_filter='*Cuda*'
grep -v "^\[       OK\|^\[ RUN" /tmp/libtest.log | tail -c 50000 > "$O/libtest.log"
S t6lib 80 $W/mmaemu bench tiers/T6.yaml --section library --quiet --report-dir "$O" --report-stem T6-library
grep -E "^\| library model" "$O/T6-library.md" >> "$O/steps.txt"
exit 0
