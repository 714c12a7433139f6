#!/usr/bin/env bash
# `pip install .` from the source tree builds and installs a package that imports and computes:
# installed into a fresh target directory with this build's Python (whose nanobind and
# scikit-build-core it uses: no download), then imported from there and run on an H200 recording.
# The CPU parts only, to keep CI short: the CUDA backends build the same way as in the main build.
# Usage: pip_install_test.sh PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
python=$1 source=$2 work=$3
rm -rf "$work/site"
mkdir -p "$work"
"$python" -m pip install -q --no-build-isolation --no-deps --target "$work/site" \
  --config-settings=build-dir="$work/build" --config-settings=cmake.define.MMAEMU_WITH_CUDA=OFF "$source"
cd "$work"
PYTHONPATH="$work/site" "$python" - "$source" <<'PY'
import pathlib, sys
import numpy as np
import mmaemu
assert pathlib.Path(mmaemu.__file__).is_relative_to(pathlib.Path("site").resolve()), mmaemu.__file__
rec = pathlib.Path(sys.argv[1]) / "fixtures/h200/mma.m16n8k16.f32.bf16.bf16.f32"
a, b, c, d = (np.load(rec / f"{r}.npy") for r in "abcd")
assert np.array_equal(mmaemu.mma("sm90", "mma.m16n8k16.f32.bf16.bf16.f32", a, b, c), d)
assert "config" in mmaemu.resolve(16, 4096, 4096, a_type="bf16", b_type="bf16", d_type="bf16")  # the data installed
print("installed", mmaemu.__file__, "and reproduced", d.size, "H200 outputs")
PY
