#!/usr/bin/env bash
# One entry point for a fresh machine: installs what is missing, configures, builds, then
#   conform   runs every tier this machine can run on the shipped fixtures (reports under reports/)
#   test      runs the test suite through CTest (what CI runs)
#   build     only set-up and build
# The set-up includes the Python package: a virtual environment .venv (Debian's Python, with its
# site packages) holding nanobind, scikit-build-core, pytest and ml_dtypes from PyPI, the package
# built with the rest, and .venv made to import it: `.venv/bin/python3 -c "import mmaemu"` (or
# `. .venv/bin/activate` first). `pip install .` builds and installs the same package anywhere.
# Environment: MMAEMU_PRESET (default: "default"; "cpu-only" skips the CUDA parts), MMAEMU_SKIP_APT=1,
# MMAEMU_BUILD_DIR=DIR (use that build as it is: no set-up, no build; CTest's test of the main job),
# MMAEMU_REPORT_DIR (default: reports), MMAEMU_SANITIZE=0 (test: leave out the sanitizer pass below).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in conform|test|build) ;; *)
  echo "usage: scripts/dev.sh conform|test|build" >&2; exit 2;;
esac
preset=${MMAEMU_PRESET:-default}
report_dir=${MMAEMU_REPORT_DIR:-reports}

# The main job: every tier file, long tiers (T4's campaigns, T6's benchmarks) in their quick form;
# suites this machine cannot run (no GPU, no third-party data) report a skip and why. One verdict
# table at the end. CTest's main-job test runs this very line on the build at hand.
main_job() {
  "$1/harness/cli/mmaemu" run tiers/T*.yaml --quick --report-dir "$report_dir" --report-stem conformance
}

if [ -n "${MMAEMU_BUILD_DIR:-}" ]; then
  [ "$mode" = conform ] || { echo "MMAEMU_BUILD_DIR is for conform only" >&2; exit 2; }
  main_job "$MMAEMU_BUILD_DIR"
  exit
fi

# Debian packages the build needs; only the missing ones are installed.
packages=(cmake g++ make git pkg-config libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
          libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libssl-dev libarchive-dev libexpat1-dev
          clang libclang-rt-14-dev    # clang: the sanitizer build and the fuzz targets (libFuzzer)
          python3-dev python3-venv python3-numpy  # the Python package
          python3-yaml)  # scripts/device_run.py reads its plans (and its test, device-runner)
if [ "${MMAEMU_SKIP_APT:-0}" != 1 ] && command -v dpkg-query >/dev/null; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# nvcc usually lives outside PATH on CUDA images.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# The Python package's build and test requirements, in .venv (Debian's Python refuses pip installs).
venv=$PWD/.venv
if [ ! -x "$venv/bin/python3" ]; then
  python3 -m venv --system-site-packages "$venv"
fi
# Without PyPI the rest still builds; the Python package (and its tests) is then left out, and said so.
"$venv/bin/python3" -c "import nanobind, scikit_build_core, pytest, ml_dtypes" 2>/dev/null ||
  "$venv/bin/pip" install -q "nanobind>=2.4" "scikit-build-core>=0.10" "pytest>=7" "ml_dtypes>=0.4" ||
  echo "mmaemu: could not install the Python package's requirements from PyPI: the package is left out" >&2

cmake --preset "$preset" -DPython_EXECUTABLE="$venv/bin/python3" >/dev/null
cmake --build --preset "$preset"
case "$preset" in cpu-only) builddir=build-cpu;; debug) builddir=build-debug;; *) builddir=build;; esac
# .venv imports the package this build made (as an editable install would): python/CMakeLists.txt.
site=$("$venv/bin/python3" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
if [ -d "$builddir/python/mmaemu" ]; then
  echo "$PWD/$builddir/python" > "$site/mmaemu-build.pth"
else
  rm -f "$site/mmaemu-build.pth"
fi

case "$mode" in
  build) ;;
  test)
    ctest --preset "$preset"
    # Then the short tests again under AddressSanitizer and UndefinedBehaviorSanitizer (clang), with
    # a short pass of every fuzz target over its seed corpus: a memory error or undefined behaviour
    # that happens to give the right bits fails here. The long fuzz runs are fuzz/run-all.sh's.
    if [ "${MMAEMU_SANITIZE:-1}" != 0 ] && [ "$preset" != sanitize ]; then
      # The harness and tests at -O0 (their instrumented build takes half as long; the arithmetic keeps -O1).
      cmake --preset sanitize -DMMAEMU_SANITIZE_GLUE_O0=ON >/dev/null
      cmake --build --preset sanitize
      ctest --preset sanitize
    fi ;;
  conform) main_job "$builddir" ;;
esac
