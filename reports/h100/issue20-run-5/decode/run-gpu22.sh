#!/usr/bin/env bash
# v5 with branch-free operand and addend decoding: GPU correctness (the prefetching build), then
# rates of the prefetching build beside one without prefetch (alt/bench-noprefetch.xz).
source "$(dirname "$0")/device-env.sh"
xz -dc "$here/alt/bench-noprefetch.xz" > $W/bench-noprefetch && chmod +x $W/bench-noprefetch
S gputest 200 $W/kernels_v4_tc_gpu_test --gtest_filter='*v5*:*Shapes*:*Declines*'
grep -v "^\[       OK\|^\[ RUN" /tmp/gputest.log | tail -c 30000 > "$O/gputest.log"
for v in prefetch noprefetch; do
  b=$W/mmaemu-bench-gemm; [ $v = noprefetch ] && b=$W/bench-noprefetch
  S v5-$v 120 $b --family wgmma --warmup 1 --samples 10 --backend v5 --format fp16 --format bf16 --format tf32 --format e4m3 --shape 4096x4096x4096 --shape 16x4096x4096 --commit "$(cat $W/commit)" --json "$O/v5-$v.json" --markdown "$O/v5-$v.md"
  grep -E "^\| [0-9]" "$O/v5-$v.md" | sed "s/^/$v /" >> "$O/steps.txt"
done
exit 0
