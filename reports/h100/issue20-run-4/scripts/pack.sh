#!/usr/bin/env bash
# Packs the stripped binaries of build/ (the GPU tests of v5 and of the library model's GPU engine), the libraries the device lacks and v5's mutant variants
# (build/harness/cli/mmaemu-mutant-140 ... 145) into pack12.tar.xz beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$(git -C "$here" rev-parse --show-toplevel)"
P=/tmp/pack12; rm -rf $P; mkdir -p $P/lib $P/variants/harness/cli
cp build/harness/cli/mmaemu build/bench/mmaemu-bench-gemm build/kernels/tests/kernels_v4_tc_gpu_test \
   build/kernels/tests/kernels_library_gemm_test $P/
for id in ${VARIANTS:-}; do
  [ -f build/harness/cli/mmaemu-mutant-$id ] && cp build/harness/cli/mmaemu-mutant-$id $P/variants/harness/cli/
done
strip $P/mmaemu $P/mmaemu-bench-gemm $P/kernels_v4_tc_gpu_test $P/kernels_library_gemm_test $P/variants/harness/cli/* 2>/dev/null || true
for l in libacl.so.1 libarchive.so.13 libbenchmark.so.1debian libbz2.so.1.0 libcrypto.so.3 libicudata.so.72 libicuuc.so.72 \
         liblz4.so.1 liblzma.so.5 libnettle.so.8 libxml2.so.2 libyaml-cpp.so.0.7 libzstd.so.1 libstdc++.so.6 libgcc_s.so.1; do
  cp -L /lib/x86_64-linux-gnu/$l $P/lib/
done
echo "$(git rev-parse HEAD)$(git diff --quiet || echo '+uncommitted')" > $P/commit
tar cf - -C $P . | xz -T2 -6 --lzma2=dict=64MiB > "$here/pack12.tar.xz"
ls -la "$here/pack12.tar.xz"
