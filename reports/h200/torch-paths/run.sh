#!/usr/bin/env bash
set -uo pipefail
P=$(command -v python3)
$P -c "import torch; print(torch.__version__)" > $OUT/py.txt 2>&1
for prefer in 0 1; do
  CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=$OUT/lt-log-prefer$prefer.txt CUBLAS_LOGINFO_DBG=1 CUBLAS_LOGDEST_DBG=$OUT/cublas-log-prefer$prefer.txt \
    TORCH_BLAS_PREFER_CUBLASLT=$prefer timeout 200 $P reports/h200/torch-paths/probe.py $OUT > $OUT/probe-prefer$prefer.txt 2>&1
  echo "prefer $prefer: exit $?"
done
ls -la $OUT
cd $OUT && tar cJf torch.tar.xz --exclude=torch.tar.xz $(ls | grep -v '^\.' ) && find . -mindepth 1 -maxdepth 1 ! -name torch.tar.xz -exec rm -rf {} +
