#!/usr/bin/env bash
# The H200 run of issue 18: the Python package's tests on the GPU, and examples/fp8_mlp.py natively
# and through mmaemu (CUDA engine on the H200, host engine on the CPU), compared.
set -uo pipefail
cd "$(dirname "$0")/.."
R=${OUT:?the output directory}/python-example
mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
PY=/opt/torch/.venv/bin/python
[ -x "$PY" ] || PY=$(command -v python3)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/lib
export PYTHONPATH=$PWD/pkg:$PWD/pylibs
echo "commit $(cat commit.txt)"; date -u
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
"$PY" - <<'PY'
import sys, platform, torch, numpy, mmaemu
print("python", platform.python_version(), "torch", torch.__version__, "cuda", torch.version.cuda, "numpy", numpy.__version__)
print("gpu", torch.cuda.get_device_name(), "mmaemu", mmaemu.__version__, "built_with_cuda", mmaemu._mmaemu.built_with_cuda)
print("devices", mmaemu.info()["devices"])
PY
echo "== pytest (python/tests) on the H200 machine"
MMAEMU_TORCH_INPUTS=$PWD/torch-inputs MMAEMU_SOURCE_DIR=$PWD timeout 900 "$PY" -m pytest -v -p no:cacheprovider -rs \
  python/tests/test_torch.py python/tests/test_library.py -k "torch or library_view or dict" 2>&1 | tail -60
echo "== examples/fp8_mlp.py"
CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE=$R/lt-log-%i.txt "$PY" examples/fp8_mlp.py --device cuda --out "$R/h200-native"
"$PY" examples/fp8_mlp.py --device cuda --out "$R/h200-native-again"
"$PY" examples/fp8_mlp.py --device cuda --emulate cuda --out "$R/h200-mmaemu-cuda"
"$PY" examples/fp8_mlp.py --device cpu --emulate host --out "$R/cpu-mmaemu-host"
"$PY" examples/fp8_mlp.py --device cpu --emulate reference --out "$R/cpu-mmaemu-reference"
"$PY" examples/fp8_mlp.py --device cpu --out "$R/cpu-native"
"$PY" examples/compare_logits.py "$R/h200-native" "$R/h200-native-again" "$R/h200-mmaemu-cuda" "$R/cpu-mmaemu-host" \
  "$R/cpu-mmaemu-reference" "$R/cpu-native" --out "$R"
"$PY" -c "import torch, json; print(json.dumps({'torch': torch.__version__, 'cuda': torch.version.cuda, 'cudnn': torch.backends.cudnn.version()}))" > "$R/versions.json"
nvidia-smi > "$R/nvidia-smi.txt"
ls -la "$R"
tar -C "${OUT:?the output directory}" -cJf "${OUT:?the output directory}/python-example.tar.xz" python-example && rm -rf "$R"
