#!/usr/bin/env bash
# The library GPU engine's tests (FP8 case K = 1008), then where the time of the library model's GPU
# engine and of tc's pipelined kernel goes at 4096^3: per-kernel durations (Nsight Compute), and the
# pipelined kernel's stall reasons, pipe use and memory throughput.
source "$(dirname "$0")/device-env.sh"
S libtest 120 $W/kernels_library_gemm_test --gtest_filter='*Cuda*'
grep -v "^\[       OK\|^\[ RUN" /tmp/libtest.log | tail -c 100000 > "$O/libtest.log"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
S ncu-lib 150 $ncu --metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --launch-count 40 $W/mmaemu bench "$here/prof-library.yaml" --quiet --report-dir /tmp/proflib
grep -v "^==PROF==" /tmp/ncu-lib.log > "$O/ncu-lib.log"
S ncu-tc 120 $ncu --kernel-name regex:wgmma_gemm_pipelined --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section Occupancy --section SchedulerStats --section WarpStateStats --section LaunchStats --print-details all $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend tc --n tc=256 --no-native --format bf16 --shape 4096x4096x4096
grep -v "^==PROF==" /tmp/ncu-tc.log > "$O/ncu-tc.log"
S bench-tc 60 $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 5 --backend tc --n tc=256 --format bf16 --format e4m3 --shape 4096x4096x4096 --json /tmp/tc.json
cp /tmp/bench-tc.log "$O/"
exit 0
