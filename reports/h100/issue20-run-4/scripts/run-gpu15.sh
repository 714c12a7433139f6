#!/usr/bin/env bash
# The pipelined kernel reading whole 128-byte rows per warp, the library finish kernel without 64-bit
# division and with same-format conversions as identities: the GPU tests of tc's pipelined kernel and of
# the library GPU engine, T3's quick GPU suites and library suites, tc's rates, T6's library section,
# and Nsight Compute per-kernel durations and the pipelined kernel's limits.
source "$(dirname "$0")/device-env.sh"
S gputest 150 $W/kernels_v4_tc_gpu_test --gtest_filter='TcPipelined.*:*Shapes*:DeviceOperands.*:*Declines*'
grep -v "^\[       OK\|^\[ RUN" /tmp/gputest.log | tail -c 200000 > "$O/gputest.log"
S libtest 120 $W/kernels_library_gemm_test --gtest_filter='*Cuda*'
grep -v "^\[       OK\|^\[ RUN" /tmp/libtest.log | tail -c 100000 > "$O/libtest.log"
S t3lib 120 $W/mmaemu run tiers/T3.yaml --suite t3-cublaslt-cuda --suite t3-cublaslt-rules-cuda --report-dir /tmp/t3lib --report-stem t3-lib
tail -c 30000 /tmp/t3lib.log > "$O/t3lib.log"
S t3quick 120 $W/mmaemu run tiers/T3.yaml --suite t3-gpu-quick --suite t3-gpu-quick-large --suite t3-gpu-wide-wgmma --report-dir /tmp/t3q --report-stem t3-gpu-quick
tail -c 100000 /tmp/t3quick.log > "$O/t3quick.log"
S bench-tc 130 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend tc --n tc=256 --format fp16 --format bf16 --format tf32 --format e4m3 --shape 4096x4096x4096 --shape 8192x8192x8192 --commit "$(cat $W/commit)" --json "$O/bench-tc.json" --markdown /tmp/bench-tc.md
cat /tmp/bench-tc.md >> "$O/steps.txt"
S t6lib 150 $W/mmaemu bench tiers/T6.yaml --section library --quiet --report-dir "$O" --report-stem T6-library
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
S ncu-lib 150 $ncu --metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --launch-count 40 $W/mmaemu bench "$here/prof-library.yaml" --quiet --report-dir /tmp/proflib
grep -v "^==PROF==" /tmp/ncu-lib.log > "$O/ncu-lib.log"
S ncu-tc 120 $ncu --kernel-name regex:wgmma_gemm_pipelined --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section Occupancy --section SchedulerStats --section WarpStateStats --section LaunchStats --print-details all $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend tc --n tc=256 --no-native --format bf16 --shape 4096x4096x4096
grep -v "^==PROF==" /tmp/ncu-tc.log > "$O/ncu-tc.log"
exit 0
