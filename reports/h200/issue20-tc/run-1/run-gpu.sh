#!/usr/bin/env bash
# Issue 20 on an H200: the GPU paths written without a GPU (tc's pipelined wide-wgmma GEMM; tc and v4 on
# device operands) against the reference (kernels_v4_tc_gpu_test, T3's t3-gpu-wide-wgmma), then the GEMM
# benchmark with operands on the device (4096^3, 8192^3, decode shapes) and Nsight Compute on the kernel.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work=/tmp/i20 && rm -rf "$work" && mkdir -p "$work" && tar xJf "$here/pack.tar.xz" -C "$work"
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$work/lib:$lt:${LD_LIBRARY_PATH:-}"
export MMAEMU_GPU_UNCHECKED=1
out="${OUT:-/tmp/out}"
commit="$(cat "$work/commit")"
{
  echo "commit: $commit"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt from: $lt"; ls "$lt" | grep -i cublaslt; ncu --version | tail -1
} > "$out/versions.txt" 2>&1
step() { local name=$1; shift; local t0=$(date +%s); "$@" > "$out/$name.log" 2>&1; echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.txt"; }
step gpu-test-new timeout 150 "$work/kernels_v4_tc_gpu_test" --gtest_filter='TcPipelined.*:DeviceOperands.*:TcDeclines.*'
step t3-wide timeout 170 "$work/mmaemu" run tiers/T3.yaml --suite t3-gpu-wide-wgmma --report-dir "$out/t3" --report-stem t3-wide
step bench timeout 120 "$work/mmaemu-bench-gemm" --backend tc --n tc=256 --format fp16 --format bf16 --format tf32 --format e4m3 \
  --shape 4096x4096x4096 --shape 8192x8192x8192 --shape 16x4096x4096 --shape 1x4096x11008 --family wgmma \
  --samples 5 --warmup 1 --commit "$commit" --json "$out/bench.json" --markdown "$out/bench.md"
ncu_sections="--section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats --section SchedulerStats"
step ncu-tc-fp16 timeout 60 ncu $ncu_sections --launch-count 1 --kernel-name regex:wgmma_gemm_pipelined \
  "$work/mmaemu-bench-gemm" --backend tc --n tc=256 --format fp16 --shape 4096x4096x4096 --family wgmma \
  --samples 1 --warmup 0 --no-native --json /tmp/ncu.json
step gpu-test-rest timeout 100 "$work/kernels_v4_tc_gpu_test" --gtest_filter='-TcPipelined.*:DeviceOperands.*:TcDeclines.*'
cat "$out/steps.txt"; tail -25 "$out/gpu-test-new.log"; tail -12 "$out/t3-wide.log"; cat "$out/bench.md" 2>/dev/null | head -40
grep -E "Duration|Throughput|Occupancy|Registers|Pipe|Issue Slots|Eligible|No Eligible" "$out/ncu-tc-fp16.log" | head -30
