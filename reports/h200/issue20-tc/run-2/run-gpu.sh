#!/usr/bin/env bash
# Issue 20 on an H200 (build C): tc's pipelined GEMM (loads three stages ahead) and the library GEMM's
# slices on the tensor cores checked against the reference and the recorded cuBLASLt outputs, Nsight
# Compute on the pipelined kernel, then the T6 tier (every section but the harness's, which replays
# fixtures) with MMA-Sim 2.1.1 on the machine's PyTorch beside the CPU rows.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
start=$(date +%s)
budget="${1:-545}"  # seconds this script may take in all (the call's limit less a margin)
W=/tmp/i20c && rm -rf $W && mkdir -p $W && tar xJf "$here/pack.tar.xz" -C $W && tar xJf "$here/packC.tar.xz" -C $W
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$W/lib:$lt:${LD_LIBRARY_PATH:-}"
export PYTHONPATH="$here/py${PYTHONPATH:+:$PYTHONPATH}"
final="${OUT:-/tmp/out}"; out=/tmp/i20out && rm -rf $out && mkdir -p $out  # few files come back: tarred at the end
commit="$(cat $W/commit)"
{ echo "build: $commit"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt: $(ls $lt | grep 'libcublasLt.so.13.')"; ncu --version | tail -1; echo "host threads: $(nproc)"
  lscpu | grep -E "Model name"; python3 -c "import torch, numpy, mmasim; print('torch', torch.__version__, 'numpy', numpy.__version__, 'mmasim', mmasim.__file__)"
} > "$out/versions.txt" 2>&1
step() { local name=$1; shift; local t0=$(date +%s); "$@" > "$out/$name.log" 2>&1; echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.txt"; }
step gpu-test timeout 70 $W/kernels_v4_tc_gpu_test --gtest_filter='TcPipelined.*:DeviceOperands.*'
step library-test timeout 60 $W/kernels_library_gemm_test --gtest_filter='*Cuda*'
step t3 timeout 90 $W/mmaemu run tiers/T3.yaml --suite t3-gpu-wide-wgmma --suite t3-cublaslt-cuda --suite t3-cublaslt-rules-cuda \
  --report-dir /tmp/t3c --report-stem t3
cp /tmp/t3c/t3.md "$out/t3.md" 2>/dev/null
step ncu-tc-fp16 timeout 30 ncu --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section LaunchStats --section WarpStateStats --section SchedulerStats --launch-count 1 --kernel-name regex:wgmma_gemm_pipelined \
  $W/mmaemu-bench-gemm --backend tc --n tc=256 --format fp16 --shape 4096x4096x4096 --family wgmma --samples 1 --warmup 0 --no-native --json /tmp/ncu.json
tar czf "$final/checks.tar.gz" -C $out .  # the checks come back even if the tier run is cut off
left=$(( budget - ($(date +%s) - start) ))
[ "$left" -gt 120 ] && step t6 timeout $left $W/mmaemu bench tiers/T6.yaml --section reference --section mmasim --section library --section gemm --report-dir "$out/t6"
cat "$out/steps.txt"; grep -E "PASSED|FAILED|outputs equal|\[ cuda \]|Failure" "$out/gpu-test.log" "$out/library-test.log" | head; tail -6 "$out/t3.log"
grep -E "Duration|Compute \(SM\)|L2 Cache Throughput|No Eligible" "$out/ncu-tc-fp16.log" | head -6
tail -40 "$out/t6.log"
tar czf "$final/results.tar.gz" -C $out . && cp "$out/steps.txt" "$out/versions.txt" "$final/"
