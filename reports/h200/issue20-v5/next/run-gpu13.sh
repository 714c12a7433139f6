#!/usr/bin/env bash
# T6 in full on the GPU machine (every section: CPU rows beside MMA-Sim, the library model, the harness,
# the GEMMs beside cuBLASLt), the reports written straight under $OUT; the build's GPU tests and T3's
# quick GPU suites ran on the same pack before (run-gpu12.sh).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/.." && pwd)"; O="${OUT:-/tmp/out}"; mkdir -p "$O"
W=/tmp/i20n && rm -rf $W && mkdir -p $W && tar xJf "$here/pack12.tar.xz" -C $W
lt="$(dirname "$(find /usr/local /usr/lib /opt -name 'libcublasLt.so.13*' 2>/dev/null | head -1)")"
export LD_LIBRARY_PATH="$W/lib:$lt:${LD_LIBRARY_PATH:-}"
export MMAEMU_SOURCE_COMMIT="$(cat $W/commit)" PYTHONPATH="$here/py${PYTHONPATH:+:$PYTHONPATH}"
{ echo "build: $(cat $W/commit)"; date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv
  echo "cuBLASLt: $(ls $lt | grep 'libcublasLt.so.13.' | head -1)"; nproc; lscpu | grep "Model name"
  python3 -c "import torch, numpy, mmasim; print('torch', torch.__version__, 'numpy', numpy.__version__, 'mmasim', getattr(mmasim, '__version__', '2.1.1'))"; } > "$O/steps.txt" 2>&1
S() { local name=$1 limit=$2; shift 2; local t0=$(date +%s)
  ( cd "$root" && timeout -s TERM -k 100 $limit "$@" ) > "/tmp/$name.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/steps.txt"; }
S t6 ${T6_LIMIT:-480} $W/mmaemu bench tiers/T6.yaml --report-dir "$O" --report-stem T6
tail -c 200000 /tmp/t6.log > "$O/T6.log"
exit 0
