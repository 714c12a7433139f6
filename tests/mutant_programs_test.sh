#!/usr/bin/env bash
# The shipped program holds no mutant, and a mutant program says what it is. Under MMAEMU_MUTANT=21
# (the block sum loses its carry: T3's quick suite kills it in a second) the shipped mmaemu still
# passes and reports itself "shipped"; its mutant twin fails and its report names the mutant; the
# twin with no mutant passes and says so. And no production source holds a mutant switch.
# Usage: mutant_programs_test.sh SOURCE_DIR MMAEMU MMAEMU_MUTANT_TWIN WORK_DIR
set -uo pipefail
src=$1 shipped=$2 twin=$3 work=$4
rm -rf "$work"; mkdir -p "$work"
cd "$src"
fail() { echo "FAIL: $*"; exit 1; }

# Production code: the overlay's own files (mutants/) are the only place a switch may be written.
if grep -rn MMAEMU_MUTANT reference kernels harness/core >"$work/grep.txt"; then
  cat "$work/grep.txt"; fail "production sources hold mutant switches"
fi

# run NAME PROGRAM [ENV...]: T3's quick host suite, exit status in $status, report in $work/NAME.
run() {
  local name=$1 program=$2; shift 2
  env "$@" "$program" run tiers/T3.yaml --suite t3-host-quick --quiet --report-dir "$work/$name" --report-stem T3 >"$work/$name.txt" 2>&1
  status=$?
}
program_of() {  # the "program" the run report records
  sed -n 's/.*"program": *"\([^"]*\)".*/\1/p' "$work/$1/T3.json" | head -1
}

run shipped "$shipped" MMAEMU_MUTANT=21
[ $status -eq 0 ] || { cat "$work/shipped.txt"; fail "the shipped program obeyed MMAEMU_MUTANT=21 (exit $status)"; }
[ "$(program_of shipped)" = "shipped" ] || fail "the shipped program's report says program '$(program_of shipped)'"

run twin "$twin" MMAEMU_MUTANT=21
[ $status -eq 1 ] || { cat "$work/twin.txt"; fail "the mutant twin under MMAEMU_MUTANT=21 exited $status, not 1"; }
case "$(program_of twin)" in
  "mutant 21 "*) ;;
  *) fail "the mutant twin's report says program '$(program_of twin)', not mutant 21" ;;
esac

run twin-clean "$twin" -u MMAEMU_MUTANT
[ $status -eq 0 ] || { cat "$work/twin-clean.txt"; fail "the mutant twin with no mutant active exited $status"; }
[ "$(program_of twin-clean)" = "mutant twin, no mutant active" ] || fail "the idle twin says '$(program_of twin-clean)'"
echo "PASS: the shipped program ignores MMAEMU_MUTANT; the twin obeys it and its reports say so"
