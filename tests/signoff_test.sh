#!/usr/bin/env bash
# `mmaemu signoff` end to end on a short plan (tests/signoff/smoke-plan.yaml): a sign-off passes; a
# second one compared with the first finds 0 differences; two shards merged equal the unsharded
# sign-off; an interrupted sign-off resumes and then equals it too; bad input exits 2 naming the file.
# Usage: signoff_test.sh SOURCE_DIR MMAEMU WORK_DIR
set -uo pipefail
src=$1 mmaemu=$2 work=$3
plan=$src/tests/signoff/smoke-plan.yaml
rm -rf "$work"; mkdir -p "$work"
cd "$src"
fail() { echo "FAIL: $*"; exit 1; }
expect_status() {  # expect_status WANT DESCRIPTION COMMAND...
  local want=$1 what=$2; shift 2
  "$@" >"$work/last.out" 2>&1; local got=$?
  [ "$got" = "$want" ] || { cat "$work/last.out"; fail "$what: exit $got, expected $want"; }
}

# 1. A sign-off passes and leaves its evidence.
expect_status 0 "the first sign-off" "$mmaemu" signoff "$plan" --out "$work/a"
grep -q "RELEASE MAY PROCEED" "$work/last.out" || fail "no verdict line in the table"
for f in signoff.json signoff.md signoff.xml preflight.json data.json steps/T2-fixtures/T2-fixtures.json \
         steps/T6-quick/T6.json; do
  [ -s "$work/a/$f" ] || fail "the sign-off left no $f"
done

# 2. The same build again, compared with the first: nothing changed.
expect_status 0 "the second sign-off, compared with the first" "$mmaemu" signoff "$plan" --out "$work/b" --compare "$work/a"
grep -q "0 differences" "$work/last.out" || { cat "$work/last.out"; fail "the comparison did not say 0 differences"; }

# 3. Two shards, merged, equal the unsharded sign-off.
expect_status 0 "shard 1/2" "$mmaemu" signoff "$plan" --out "$work/s1" --shard 1/2
expect_status 0 "shard 2/2" "$mmaemu" signoff "$plan" --out "$work/s2" --shard 2/2
expect_status 0 "mmaemu merge of the shards" "$mmaemu" merge "$work/s1" "$work/s2" --out "$work/merged"
expect_status 0 "the merged sign-off compared with the unsharded one" "$mmaemu" compare "$work/a" "$work/merged"
grep -q "0 differences" "$work/last.out" || { cat "$work/last.out"; fail "merged shards differ from the unsharded sign-off"; }

# 4. Interrupted after its first step, then resumed: the finished steps are kept, the result is the same.
"$mmaemu" signoff "$plan" --out "$work/r" --quiet >"$work/interrupted.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  grep -q '"name": "T3-quick"' "$work/r/signoff.json" 2>/dev/null && break
  sleep 0.1
done
kill -INT "$pid"; wait "$pid"; status=$?
[ "$status" = 130 ] || { cat "$work/interrupted.out"; fail "an interrupted sign-off exits 130, 128 + SIGINT (got $status)"; }
grep -q '"complete": false' "$work/r/signoff.json" || fail "the interrupted record does not say it is incomplete"
expect_status 0 "the resumed sign-off" "$mmaemu" signoff "$plan" --out "$work/r" --resume
expect_status 0 "the resumed sign-off compared with the first" "$mmaemu" compare "$work/a" "$work/r"

# 5. Bad input: exit 2, naming what is wrong.
expect_status 2 "a shard such as 3/2" "$mmaemu" signoff "$plan" --out "$work/x" --shard 3/2
grep -q "3/2" "$work/last.out" || fail "the message does not name the shard"
expect_status 2 "a missing previous sign-off" "$mmaemu" signoff "$plan" --out "$work/x" --compare "$work/nowhere"
grep -q "nowhere" "$work/last.out" || fail "the message does not name the directory"
expect_status 2 "a previous sign-off of another schema" "$mmaemu" signoff "$plan" --out "$work/x" --compare "$work/a/steps"
printf 'signoff: bad\npreflight: {environment: [%s/fixtures/h200/manifest.yaml], required: []}\ndata: {manifests: [%s/release/shipped-data.yaml]}\nsteps:\n  - name: T2\n    tier: %s/tiers/T2.yaml\n    sutes: [h200-fixtures]\n' \
  "$src" "$src" "$src" >"$work/bad-plan.yaml"
expect_status 2 "a plan with an unknown key" "$mmaemu" signoff "$work/bad-plan.yaml" --out "$work/x"
grep -q "bad-plan.yaml:7:5: unknown key 'sutes'" "$work/last.out" || { cat "$work/last.out"; fail "the message does not name file:line:column"; }
expect_status 2 "an --out that holds another sign-off" "$mmaemu" signoff "$plan" --out "$work/a"
printf 'signoff: bad\npreflight: {environment: [%s/fixtures/h200/manifest.yaml], required: []}\ndata: {manifests: [%s/release/shipped-data.yaml]}\nsteps:\n  - name: T2\n    tier: %s/tiers/T2.yaml\n    require_pinned: [sm90, sm91]\n' \
  "$src" "$src" "$src" >"$work/bad-pin.yaml"
expect_status 2 "a plan requiring a profile the reference lacks" "$mmaemu" signoff "$work/bad-pin.yaml" --out "$work/x"
grep -q "'sm91' is no profile" "$work/last.out" || { cat "$work/last.out"; fail "the message does not name the profile"; }

# 6. A step whose required profile no recording pinned in the run fails, naming the profile: the
#    H200 fixtures pin sm90, nothing pins sm75.
printf 'signoff: pins\npreflight: {environment: [%s/fixtures/h200/manifest.yaml], required: []}\ndata: {manifests: [%s/release/shipped-data.yaml]}\nsteps:\n  - name: T2\n    tier: %s/tiers/T2.yaml\n    suites: [h200-fixtures]\n    require_pinned: [sm90, sm75]\n' \
  "$src" "$src" "$src" >"$work/pin-plan.yaml"
expect_status 1 "a step whose required profile was not pinned" "$mmaemu" signoff "$work/pin-plan.yaml" --out "$work/p"
grep -q "pinned by recorded hardware were not: sm75" "$work/p/signoff.json" || { cat "$work/last.out"; fail "the step does not name the unpinned profile"; }
grep -q '"pinned_profiles": \[' "$work/p/steps/T2/T2.json" || fail "the run report lists no pinned profiles"
echo "PASS: sign-off, comparison, shards merged, resume, bad input and required pins"
