#!/usr/bin/env bash
set -uo pipefail
mkdir -p $OUT/calls
CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=$OUT/lt-log.txt timeout 300 python3 reports/h200/torch-bits/bits.py $OUT/calls > $OUT/bits.txt 2>&1
echo "bits: exit $?"; tail -3 $OUT/bits.txt; grep -c Matmul $OUT/lt-log.txt
cd $OUT && tar cJf torch-bits.tar.xz calls lt-log.txt bits.txt && rm -rf calls lt-log.txt bits.txt && ls -la
