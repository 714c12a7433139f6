#!/usr/bin/env bash
# T6's GEMM section at the targets' shapes (T6-targets.yaml: v5 and tc beside cuBLASLt).
source "$(dirname "$0")/device-env.sh"
S t6gemm ${T6_LIMIT:-330} $W/mmaemu bench "$here/T6-targets.yaml" --quiet --report-dir "$O" --report-stem T6-gemm-targets
tail -c 50000 /tmp/t6gemm.log > "$O/t6gemm.log"
exit 0
