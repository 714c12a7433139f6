#!/usr/bin/env bash
# Issue 20 on the GPU, short form: the GEMM benchmark per format at the target shapes, each case its own
# process with its own limit, every JSON written straight under $OUT so that a cut-off keeps what ran.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; O="${OUT:-/tmp/out}"; mkdir -p "$O"
W=/tmp/i20e && rm -rf $W && mkdir -p $W && tar xJf "$here/pack.tar.xz" -C $W && tar xJf "$here/packD.tar.xz" -C $W && tar xJf "$here/packE.tar.xz" -C $W
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$W/lib:$lt:${LD_LIBRARY_PATH:-}"
{ echo "build: $(cat $W/commit)"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt: $(ls $lt | grep 'libcublasLt.so.13.')"; } > "$O/versions.txt" 2>&1
B() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  timeout -s TERM $limit $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --json "$O/$name.json" --markdown "/tmp/$name.md" "$@" >> "$O/bench.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
B fp16-4096 70 --backend v4 --backend tc --n tc=256 --format fp16 --shape 4096x4096x4096
B e4m3-4096 60 --backend v4 --backend tc --n tc=256 --format e4m3 --shape 4096x4096x4096
B decode-fp16 50 --backend v4 --backend tc --n tc=256 --format fp16 --shape 16x4096x4096 --shape 1x4096x11008
B bf16-tf32-4096 80 --backend v4 --backend tc --n tc=256 --format bf16 --format tf32 --shape 4096x4096x4096
B fp16-8192 60 --backend tc --n tc=256 --format fp16 --format e4m3 --shape 8192x8192x8192
cat /tmp/*-*.md | grep -E "^\|" | grep -v -- "---"
