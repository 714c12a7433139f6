#!/usr/bin/env bash
# With the tensor-memory-accelerator pipelined kernel: tc's rates case by case (each under its own time
# limit, so that a slow or stuck case is named), and the library model's GPU mutants (T4-gpu --only
# 150..153: variants built from this commit).
source "$(dirname "$0")/device-env.sh"
bench() { local name=$1 limit=$2; shift 2
  S $name $limit $W/mmaemu-bench-gemm --family wgmma --warmup 1 --samples 10 --backend tc --n tc=256 --commit "$(cat $W/commit)" --json "/tmp/$name.json" --markdown "/tmp/$name.md" "$@"
  cp /tmp/$name.log "$O/" 2>/dev/null; grep -E "^\| [0-9]" /tmp/$name.md >> "$O/steps.txt" 2>/dev/null; cp /tmp/$name.json "$O/" 2>/dev/null; }
for f in fp16 bf16 tf32 e4m3; do bench tc-$f-4096 45 --format $f --shape 4096x4096x4096; done
for f in fp16 bf16 e4m3; do bench tc-$f-8192 60 --format $f --shape 8192x8192x8192; done
S t4lib 300 $W/mmaemu mutate tiers/T4-gpu.yaml --no-build --build-dir $W/variants --only 150 --only 151 --only 152 --only 153 --report-dir /tmp/t4lib
tail -c 60000 /tmp/t4lib.log > "$O/t4lib.log"; tar cJf "$O/t4lib.tar.xz" -C /tmp t4lib 2>/dev/null
exit 0
