#!/usr/bin/env bash
# T6 in full on the GPU machine (every section: CPU rows beside MMA-Sim, the library model, the harness,
# the GEMMs beside cuBLASLt), its reports in the logs archive; the build's GPU tests and T3's
# quick GPU suites ran on the same pack before (run-gpu12.sh).
source "$(dirname "$0")/device-env.sh"
# MMA-Sim 2.1.1 for T6's CPU rows: `pip download mmasim==2.1.1 --no-deps`, installed with
# `pip install --no-deps --target py` beside these scripts (the device has no package registry).
export PYTHONPATH="$here/py${PYTHONPATH:+:$PYTHONPATH}"
python3 -c "import torch, numpy, mmasim; print('torch', torch.__version__, 'numpy', numpy.__version__, 'mmasim', getattr(mmasim, '__version__', '2.1.1'))" >> "$O/steps.txt" 2>&1
S t6 ${T6_LIMIT:-540} $W/mmaemu bench tiers/T6.yaml --report-dir "$O" --report-stem T6
tail -c 200000 /tmp/t6.log > "$O/T6.log"
exit 0
