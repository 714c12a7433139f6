#!/usr/bin/env bash
# The closing run for v5's chain: T6's GEMM section at the targets' shapes (v5 and tc beside cuBLASLt),
# v5's mutants whose anchors moved (140, 141, 144; each stopped at its first kill), and t3-gpu's cases
# with v5 alone (T3-v5.yaml) as far as the time allows.
source "$(dirname "$0")/device-env.sh"
S t6gemm ${T6_LIMIT:-300} $W/mmaemu bench "$here/T6-targets.yaml" --quiet --report-dir "$O" --report-stem T6-gemm-targets
tail -c 50000 /tmp/t6gemm.log > "$O/t6gemm.log"
grep -E "^\| (tc|best|v5)" "$O/T6-gemm-targets.md" >> "$O/steps.txt" 2>/dev/null
S t4v5 ${T4_LIMIT:-200} $W/mmaemu mutate tiers/T4-gpu.yaml --no-build --build-dir $W/variants --fast --only 140 --only 141 --only 144 --report-dir /tmp/t4v5
tail -c 60000 /tmp/t4v5.log > "$O/t4v5.log"; tar cJf "$O/t4v5.tar.xz" -C /tmp t4v5 2>/dev/null
S t3v5 ${T3V5_LIMIT:-150} $W/mmaemu run "$here/T3-v5.yaml" --report-dir /tmp/t3v5 --report-stem t3-v5
tail -c 100000 /tmp/t3v5.log > "$O/t3v5.log"; cp /tmp/t3v5/t3-v5.md "$O/" 2>/dev/null
exit 0
