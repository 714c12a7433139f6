#!/usr/bin/env bash
# T5 end to end on a deliberately broken build: with a kernels mutant switched on (MMAEMU_MUTANT=40:
# the host backend reads subnormals with an implicit leading bit), the property suite fails, its report
# shows the counterexample shrunk to a few elements, and the replay script the suite wrote reproduces
# the difference under the mutant and not without it. Usage: t5_counterexample_test.sh SOURCE_DIR MMAEMU WORK_DIR
set -uo pipefail
src=$1 mmaemu=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
cd "$src"
fail() { echo "FAIL: $*"; exit 1; }

MMAEMU_MUTANT=40 "$mmaemu" run tiers/T5.yaml --suite t5-host --quiet --report-dir "$work" >"$work/out.txt" 2>&1
status=$?
[ $status -eq 1 ] || { cat "$work/out.txt"; fail "expected exit 1 under the mutant, got $status"; }
case_dir="$work/properties/T5.t5-host/backend-equals-reference_host"
for f in case.txt replay.sh a.npy b.npy c.npy; do
  [ -s "$case_dir/$f" ] || fail "no $f in $case_dir"
done
grep -q "backend-equals-reference/host" "$work/T5.t5-host.json" || fail "the JSON report does not carry the counterexample"
grep -q "backend-equals-reference/host" "$work/T5.t5-host.xml" || fail "the JUnit report does not carry the counterexample"
# A few elements: the shrunk inputs hold at most 4 non-zero patterns.
inputs=$(sed -n 's/^inputs: *//p' "$case_dir/case.txt")
nonzero=$(grep -o '[0-9a-f]\{2,8\}' <<<"${inputs#*a=}" | grep -vc '^0*$')
[ "$nonzero" -le 4 ] || fail "the counterexample was not shrunk: $inputs"
echo "shrunk counterexample: $inputs"

# The replay script reproduces it under the mutant, and the two backends agree without it.
MMAEMU="$mmaemu" MMAEMU_MUTANT=40 sh "$case_dir/replay.sh" >/dev/null 2>&1 || fail "replay.sh failed"
cmp -s "$case_dir/d-host.npy" "$case_dir/d-reference.npy" && fail "replayed under the mutant, host and reference agree"
MMAEMU="$mmaemu" sh "$case_dir/replay.sh" >/dev/null 2>&1 || fail "replay.sh failed without the mutant"
cmp -s "$case_dir/d-host.npy" "$case_dir/d-reference.npy" || fail "without the mutant, host and reference differ"
echo "PASS: a broken build gives a shrunk counterexample that replays"
