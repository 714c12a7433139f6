#!/usr/bin/env bash
# v5's mutants whose anchors moved (140, 141, 144), each stopped at its first kill; the T4-gpu baseline
# needs the recorded cuBLASLt calls (fixtures/cublaslt-h200 without heuristic/).
source "$(dirname "$0")/device-env.sh"
S t4v5 ${T4_LIMIT:-240} $W/mmaemu mutate tiers/T4-gpu.yaml --no-build --build-dir $W/variants --fast --only 140 --only 141 --only 144 --report-dir /tmp/t4v5
tail -c 60000 /tmp/t4v5.log > "$O/t4v5.log"; cp /tmp/t4v5/T4-gpu.md /tmp/t4v5/T4-gpu.json "$O/" 2>/dev/null
exit 0
