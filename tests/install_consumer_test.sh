#!/usr/bin/env bash
# The installed tree as a program outside this repository meets it: `cmake --install` into one prefix,
# the tree moved elsewhere (relocatable: no installed CMake or pkg-config file names the first prefix,
# the build or the sources), then examples/cpp configured with find_package(mmaemu 0.1) against the moved
# tree, built and run (one Hopper dot product through mmaemu::reference), and the same source built with
# pkg-config's flags alone. Usage: install_consumer_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -uo pipefail
src=$1 build=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$@" >"$work/last.out" 2>&1 || { cat "$work/last.out"; fail "exit $?: $*"; }; }

run cmake --install "$build" --prefix "$work/first"
for f in bin/mmaemu lib/libmmaemu_reference.a include/mmaemu/reference/model.hpp lib/cmake/mmaemu/mmaemuConfig.cmake \
         lib/cmake/mmaemu/mmaemuConfigVersion.cmake lib/cmake/mmaemu/mmaemuTargets.cmake lib/pkgconfig/mmaemu.pc; do
  [ -f "$work/first/$f" ] || fail "the install lacks $f"
done
[ -e "$work/first/mmaemu/_mmaemu"* ] 2>/dev/null && fail "a plain install put the Python package in the prefix"
mv "$work/first" "$work/moved"
if grep -rl -e "$work/first" -e "$build" -e "$src" "$work/moved/lib/cmake" "$work/moved/lib/pkgconfig" "$work/moved/include"; then
  fail "installed files above name an absolute path of the install, the build or the sources"
fi

# find_package against the moved tree; a version of another major is refused.
run cmake -S "$src/examples/cpp" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/moved" -DCMAKE_BUILD_TYPE=Release
run cmake --build "$work/consumer"
"$work/consumer/hopper_dot" >"$work/dot.out" 2>&1 || { cat "$work/dot.out"; fail "the consumer's result"; }
grep -q "small integers: 43080000 (136.0f is 43080000)" "$work/dot.out" || { cat "$work/dot.out"; fail "136 exactly"; }
grep -q "tensor core 3f800008, sequential IEEE fp32 3f800000" "$work/dot.out" || { cat "$work/dot.out"; fail "Hopper's sum"; }
mkdir -p "$work/v2"
sed 's/find_package(mmaemu 0.1 REQUIRED)/find_package(mmaemu 1.0 REQUIRED)/' "$src/examples/cpp/CMakeLists.txt" >"$work/v2/CMakeLists.txt"
cp "$src/examples/cpp/hopper_dot.cpp" "$work/v2/"
if cmake -S "$work/v2" -B "$work/v2/build" -DCMAKE_PREFIX_PATH="$work/moved" >"$work/last.out" 2>&1; then
  fail "find_package(mmaemu 1.0) accepted version 0.1"
fi

# pkg-config alone.
flags=$(PKG_CONFIG_PATH="$work/moved/lib/pkgconfig" pkg-config --cflags --libs mmaemu) || fail "pkg-config mmaemu"
run c++ "$src/examples/cpp/hopper_dot.cpp" $flags -o "$work/hopper_dot_pc"
"$work/hopper_dot_pc" | grep -q "tensor core 3f800008" || fail "the pkg-config build's result"
echo "PASS: installed, moved, found by find_package (0.1; 1.0 refused) and pkg-config; the consumer computes Hopper's bits"
