#!/usr/bin/env bash
# Fuzzes every target of the sanitize build in turn (or JOBS at a time) for TIME_PER_TARGET seconds,
# each over its corpus (build-san/fuzz/corpus/<target>/, which grows) with its dictionary, and prints
# one line per target: executions, coverage (cov, ft), corpus size and crash inputs found.
#   bash fuzz/run-all.sh [TIME_PER_TARGET=600] [JOBS=1] [TARGET[=WORKERS]...]
# TARGET=WORKERS runs that target as WORKERS libFuzzer processes sharing its corpus (-jobs), for a
# machine with many cores; its executions are the sum of theirs. MMAEMU_FUZZ_BUILD: another build
# directory laid out like build-san (fuzz/fuzz_<target>, fuzz/corpus/<target>/).
# Crash inputs land in build-san/fuzz/artifacts/<target>/; each one found is a bug: fix the reader,
# then keep the input under fuzz/regressions/<target>/ (CTest replays them).
set -euo pipefail
time_per_target=${1:-600}
jobs=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MMAEMU_FUZZ_BUILD:-$root/build-san}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(sed -n '/^set(MMAEMU_FUZZ_TARGETS/,/)/p' "$root/fuzz/CMakeLists.txt" | tr -d '()' | sed 's/set\|MMAEMU_FUZZ_TARGETS//g'))
fi
dict_of() {  # the target's dictionary, as fuzz/CMakeLists.txt assigns it
  sed -n "s/^set(_dict_$1 \(.*\))$/\1/p" "$root/fuzz/CMakeLists.txt"
}
max_len_of() {  # the target's longest input, as fuzz/CMakeLists.txt sets it (65536 unless it does)
  local n
  n=$(sed -n "s/^set(_max_len_$1 \([0-9]*\))$/\1/p" "$root/fuzz/CMakeLists.txt")
  echo "${n:-65536}"
}
# The targets write each input to a scratch directory under TMPDIR (and the cli target its commands'
# files, with fsync): on a memory file system that costs nothing.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
logs=$build/fuzz/logs
mkdir -p "$logs"

run_one() {
  local t=$1 workers=$2 exe=$build/fuzz/fuzz_$1 corpus=$build/fuzz/corpus/$1 art=$build/fuzz/artifacts/$1/
  mkdir -p "$corpus" "$art" "$logs/$t"
  rm -f "$logs/$t"/*.log
  local extra=()
  [ "$t" = cli ] && extra=(-close_fd_mask=1)
  # Each worker logs to fuzz-<i>.log in the current directory; one worker logs the same way.
  (cd "$logs/$t" && "$exe" -max_total_time="$time_per_target" -timeout=25 -rss_limit_mb=4096 -max_len="$(max_len_of "$t")" \
       -dict="$root/fuzz/dict/$(dict_of "$t").dict" -artifact_prefix="$art" -print_final_stats=1 \
       -jobs="$workers" -workers="$workers" "${extra[@]}" "$corpus" >/dev/null 2>&1 || true)
}

running=0
for spec in "${targets[@]}"; do
  t=${spec%%=*}; workers=1
  [ "$spec" != "$t" ] && workers=${spec#*=}
  run_one "$t" "$workers" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

printf '%-18s %8s %12s %8s %8s %8s %8s\n' target workers execs cov ft corpus crashes
for spec in "${targets[@]}"; do
  t=${spec%%=*}; workers=1
  [ "$spec" != "$t" ] && workers=${spec#*=}
  execs=$(cat "$logs/$t"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
  # Coverage: the highest any worker reached (they share the corpus, so the last lines agree closely).
  cov=$(cat "$logs/$t"/fuzz-*.log 2>/dev/null | sed -n 's/^#[0-9].* cov: \([0-9]*\).*/\1/p' | sort -n | tail -1)
  ft=$(cat "$logs/$t"/fuzz-*.log 2>/dev/null | sed -n 's/^#[0-9].* ft: \([0-9]*\).*/\1/p' | sort -n | tail -1)
  corpus=$(ls "$build/fuzz/corpus/$t" | wc -l)
  crashes=$(ls "$build/fuzz/artifacts/$t" 2>/dev/null | wc -l)
  printf '%-18s %8s %12s %8s %8s %8s %8s\n' "$t" "$workers" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
done
