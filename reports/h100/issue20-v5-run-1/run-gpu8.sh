#!/usr/bin/env bash
# v5's first run on a GPU: the GPU test, T3 with v5 required, v5's rates beside v4/tc/cuBLASLt, one
# Nsight Compute profile of its kernel. Every result written straight under $OUT as it comes.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/.." && pwd)"; O="${OUT:-/tmp/out}"; mkdir -p "$O"
W=/tmp/i20f && rm -rf $W && mkdir -p $W && tar xJf "$here/pack.tar.xz" -C $W
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$W/lib:$lt:${LD_LIBRARY_PATH:-}"
export MMAEMU_GPU_UNCHECKED=1 MMAEMU_SOURCE_COMMIT="$(cat $W/commit)"
{ echo "build: $(cat $W/commit)"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt: $(ls $lt | grep 'libcublasLt.so.13.')"; } > "$O/versions.txt" 2>&1
S() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  ( cd "$root" && timeout -s TERM $limit "$@" ) > "$O/$name.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
S gputest 120 $W/kernels_v4_tc_gpu_test --gtest_filter='*v5*:DeviceOperands.*'
tail -c 200000 "$O/gputest.log" > "$O/gputest.tmp" && mv "$O/gputest.tmp" "$O/gputest.log"
S t3v5 200 $W/mmaemu run .device22/T3-v5.yaml --report-dir /tmp/t3v5 --report-stem t3-v5
cp /tmp/t3v5/t3-v5.md "$O/" 2>/dev/null
B() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  timeout -s TERM $limit $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --commit "$(cat $W/commit)" --json "$O/$name.json" --markdown "/tmp/$name.md" "$@" >> "$O/bench.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
B v5-4096 90 --backend v5 --backend v4 --format fp16 --format e4m3 --shape 4096x4096x4096
B v5-decode 60 --backend v5 --backend v4 --format fp16 --shape 16x4096x4096 --shape 1x4096x11008
cat /tmp/v5-*.md | grep -E "^\|" | grep -v -- "---" | tee -a "$O/steps.txt"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] && S ncu 100 $ncu --kernel-name regex:wide_gemm --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section InstructionStats --section SchedulerStats --section WarpStateStats $W/mmaemu-bench-gemm --family wgmma --warmup 0 --samples 1 --backend v5 --no-native --format fp16 --shape 2048x2048x2048
exit 0
