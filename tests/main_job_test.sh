#!/usr/bin/env bash
# The README's main command, end to end on the build at hand: `scripts/dev.sh conform` with its
# set-up skipped (MMAEMU_BUILD_DIR). It must exit 0, print the verdict table, and its report must
# hold a row of every tier file under tiers/: a tier file the main job cannot run fails here; and
# every tier that has CPU suites must have passed one.
# Usage: main_job_test.sh SOURCE_DIR BUILD_DIR REPORT_DIR
set -uo pipefail
src=$1 build=$2 reports=$3
rm -rf "$reports"
out=$(MMAEMU_BUILD_DIR="$build" MMAEMU_REPORT_DIR="$reports" bash "$src/scripts/dev.sh" conform 2>&1)
status=$?
printf '%s\n' "$out"
fail() { echo "FAIL: $*"; exit 1; }
[ "$status" = 0 ] || fail "scripts/dev.sh conform exited $status"
grep -Eq "^suite +labels +verdict +compared +mismatched" <<<"$out" || fail "no verdict table on stdout"
json="$reports/conformance.json"
[ -s "$json" ] || fail "no report at $json"
for f in "$src"/tiers/T*.yaml; do
  tier=$(sed -n 's/^tier: *\([A-Za-z0-9_-]*\).*/\1/p' "$f" | head -1)
  [ -n "$tier" ] || fail "$f names no tier"
  grep -q "\"tier\": \"$tier\"" "$json" || fail "the main job's report has no row of $f (tier $tier)"
done
# The tiers with CPU suites must have passed something here: a main job that skipped them all would
# exit 0 having checked nothing. (T3p and T4-gpu need a GPU and may skip, with their reasons.)
for tier in T2 T3 T4-cpu T5 T6; do
  grep -Eq "^$tier\.[^ ]+ +[^ ]+ +pass " <<<"$out" || fail "no unit of $tier passed"
done
echo "PASS: the main job ran every tier file and exited 0"
