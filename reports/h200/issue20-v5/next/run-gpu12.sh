#!/usr/bin/env bash
# v5 with the Hopper profiles as constants, packed pass 1, the next stage prefetched, one row split
# over lanes; and the library model's slices on the tensor cores on operands as stored: the GPU tests
# (v5's, the library GPU engine's), T3's library suites on the GPU engine, T3's quick GPU suites, v5's rates beside v4 and cuBLASLt, Nsight Compute
# profiles with the stall reasons, v5's mutants (T4-gpu --only 140..145), and t3-gpu's cases with v5
# alone, required (T3-v5.yaml; SKIP_T3V5=1 leaves it out where the device time is short).
source "$(dirname "$0")/device-env.sh"
S gputest 120 $W/kernels_v4_tc_gpu_test --gtest_filter='*v5*:*Shapes*:DeviceOperands.*:*Declines*'
grep -v "^\[       OK\|^\[ RUN" /tmp/gputest.log | tail -c 300000 > "$O/gputest.log"
S libtest 120 $W/kernels_library_gemm_test --gtest_filter='*Cuda*'
grep -v "^\[       OK\|^\[ RUN" /tmp/libtest.log | tail -c 100000 > "$O/libtest.log"
S t3lib 120 $W/mmaemu run tiers/T3.yaml --suite t3-cublaslt-cuda --suite t3-cublaslt-rules-cuda --report-dir /tmp/t3lib --report-stem t3-lib
tail -c 30000 /tmp/t3lib.log > "$O/t3lib.log"
S t3quick 100 $W/mmaemu run tiers/T3.yaml --suite t3-gpu-quick --suite t3-gpu-quick-large --suite t3-gpu-wide-wgmma --report-dir /tmp/t3q --report-stem t3-gpu-quick
tail -c 100000 /tmp/t3quick.log > "$O/t3quick.log"
B() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  timeout -s TERM $limit $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --commit "$(cat $W/commit)" --json "/tmp/$name.json" --markdown "/tmp/$name.md" "$@" >> /tmp/bench.log 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
B v5-4096 70 --backend v5 --backend v4 --format fp16 --format bf16 --format e4m3 --format tf32 --shape 4096x4096x4096
B v5-decode 40 --backend v5 --backend v4 --format fp16 --shape 16x4096x4096 --shape 1x4096x11008
python3 - "$O/bench.json" /tmp/v5-4096.json /tmp/v5-decode.json <<'PY' || cp /tmp/v5-4096.json "$O/bench.json"
import json,sys
out={"runs":[json.load(open(f)) for f in sys.argv[2:]]}
json.dump(out,open(sys.argv[1],"w"),indent=1)
PY
cat /tmp/v5-*.md | grep -E "^\|" | grep -v -- "---" | tee -a "$O/steps.txt"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] && S ncu 60 $ncu --kernel-name regex:wide_gemm --launch-count 1 --section MemoryWorkloadAnalysis --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section InstructionStats --section SchedulerStats --section WarpStateStats --print-details all $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend v5 --no-native --format fp16 --shape 2048x2048x2048
grep -v "^==PROF==" /tmp/ncu.log > "$O/ncu.log" 2>/dev/null
[ -n "$ncu" ] && S ncu-decode 40 $ncu --kernel-name regex:wide_gemm --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --print-details all $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend v5 --no-native --format fp16 --shape 16x4096x4096
grep -v "^==PROF==" /tmp/ncu-decode.log > "$O/ncu-decode.log" 2>/dev/null
S t4v5 170 $W/mmaemu mutate tiers/T4-gpu.yaml --no-build --build-dir $W/variants --only 140 --only 141 --only 142 --only 143 --only 144 --only 145 --report-dir /tmp/t4v5
tail -c 60000 /tmp/t4v5.log > "$O/t4v5.log"; tar cJf "$O/t4v5.tar.xz" -C /tmp t4v5 2>/dev/null
[ "${SKIP_T3V5:-0}" = 1 ] || S t3v5 170 $W/mmaemu run "$here/T3-v5.yaml" --report-dir /tmp/t3v5 --report-stem t3-v5
tail -c 100000 /tmp/t3v5.log > "$O/t3v5.log"
exit 0
