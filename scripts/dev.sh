#!/usr/bin/env bash
# One entry point for a fresh machine: installs what is missing, configures, builds, then
#   conform   runs every tier this machine can run on the shipped fixtures (reports under reports/)
#   test      runs the test suite through CTest (what CI runs)
#   build     only set-up and build
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
          clang libclang-rt-14-dev)   # clang: the sanitizer build and the fuzz targets (libFuzzer)
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

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
case "$preset" in cpu-only) builddir=build-cpu;; debug) builddir=build-debug;; *) builddir=build;; esac

case "$mode" in
  build) ;;
  test)
    ctest --preset "$preset"
    # Then the short tests again under AddressSanitizer and UndefinedBehaviorSanitizer (clang), with
    # a short pass of every fuzz target over its seed corpus: a memory error or undefined behaviour
    # that happens to give the right bits fails here. The long fuzz runs are fuzz/run-all.sh's.
    if [ "${MMAEMU_SANITIZE:-1}" != 0 ] && [ "$preset" != sanitize ]; then
      cmake --preset sanitize >/dev/null
      cmake --build --preset sanitize
      ctest --preset sanitize
    fi ;;
  conform) main_job "$builddir" ;;
esac
