#!/usr/bin/env bash
# The H200 run of `mmaemu probe` (issue 19): every instruction the recorder has, blind, then an
# independent recording by the recorder for checking the inferred profile on the host.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$here/lib:$lt:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp/out}"
work=/tmp/probe-run && rm -rf "$work" && mkdir -p "$work"
{
  echo "commit: $(cat "$here/commit")"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  echo "cuBLASLt from: $lt"
} > "$out/versions.txt" 2>&1
start=$(date +%s)
"$here/mmaemu-probe" --out "$work/probe-h200" --seed 1 > "$out/probe.log" 2>&1; echo "probe exit $?" >> "$out/probe.log"
echo "probe seconds: $(( $(date +%s) - start ))" >> "$out/probe.log"
# "$here/mmaemu-record" --out "$work/fresh-h200" --seed 20261204 --tiles-per-family 8 > "$out/record.log" 2>&1; echo "record exit $?" >> "$out/record.log"
start=$(date +%s)
"$here/mmaemu-probe" --out "$work/probe-cublaslt" --seed 1 --cublaslt bf16:66 --cublaslt fp16:66 --cublaslt e4m3:66 \
  --cublaslt fp32:55 --cublaslt fp32:55:1 > "$out/cublaslt.log" 2>&1; echo "probe --cublaslt exit $?" >> "$out/cublaslt.log"
echo "seconds: $(( $(date +%s) - start ))" >> "$out/cublaslt.log"
cp "$work/probe-h200/report.md" "$work/probe-h200/report.json" "$work/probe-h200/profile.yaml" "$out/" 2>/dev/null
cp "$work/probe-cublaslt/cublaslt.md" "$out/" 2>/dev/null
tar cJf "$out/probe-run.tar.xz" -C "$work" probe-cublaslt probe-h200 $(test -d "$work/fresh-h200" && echo fresh-h200)
ls -la "$out"
