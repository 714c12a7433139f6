#!/usr/bin/env bash
# Issue 20 groundwork on an H200: the GEMM benchmark's current rows (tc, v4 beside cuBLASLt) and where the
# emulation kernels' time goes (Nsight Compute: speed of light, occupancy, pipes, memory).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$lt:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp/out}"
bench="$here/mmaemu-bench-gemm"
{
  echo "binary built at: $(cat "$here/commit")"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv
  echo "cuBLASLt from: $lt"; ncu --version | tail -1
} > "$out/versions.txt" 2>&1
"$bench" --backend tc --backend v4 --format fp16 --format bf16 --format tf32 --format e4m3 \
  --shape 4096x4096x4096 --shape 16x4096x4096 --shape 1x4096x11008 --family wgmma --samples 10 --warmup 2 \
  --json "$out/gemm.json" --markdown "$out/gemm.md" > "$out/gemm.log" 2>&1; echo "bench exit $?" >> "$out/gemm.log"
ncu_sections="--section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats"
for b in tc v4; do
  for f in fp16 e4m3; do
    timeout 200 ncu $ncu_sections --launch-skip 1 --launch-count 1 --kernel-name regex:'gemm|tiled|native|kernel' \
      "$bench" --backend $b --format $f --shape 4096x4096x4096 --family wgmma --samples 1 --warmup 1 --no-native \
      --json /tmp/ncu-$b-$f.json > "$out/ncu-$b-$f.txt" 2>&1
    echo "ncu exit $?" >> "$out/ncu-$b-$f.txt"
  done
done
ls -la "$out"
