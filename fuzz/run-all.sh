#!/usr/bin/env bash
# Fuzzes every target of the sanitize build in turn (or JOBS at a time) for TIME_PER_TARGET seconds,
# each over its corpus (build-san/fuzz/corpus/<target>/, which grows) with its dictionary, and prints
# one line per target: executions, coverage (cov, ft), corpus size and crash inputs found.
#   bash fuzz/run-all.sh [TIME_PER_TARGET=600] [JOBS=1] [TARGET...]
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
logs=$build/fuzz/logs
mkdir -p "$logs"

run_one() {
  local t=$1 exe=$build/fuzz/fuzz_$1 corpus=$build/fuzz/corpus/$1 art=$build/fuzz/artifacts/$1/
  mkdir -p "$corpus" "$art"
  local extra=()
  [ "$t" = cli ] && extra=(-close_fd_mask=1)
  "$exe" -max_total_time="$time_per_target" -timeout=25 -rss_limit_mb=4096 -max_len=65536 \
         -dict="$root/fuzz/dict/$(dict_of "$t").dict" -artifact_prefix="$art" -print_final_stats=1 \
         "${extra[@]}" "$corpus" >"$logs/$t.log" 2>&1 || true
}

running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

printf '%-18s %12s %8s %8s %8s %8s\n' target execs cov ft corpus crashes
for t in "${targets[@]}"; do
  log=$logs/$t.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(ls "$build/fuzz/corpus/$t" | wc -l)
  crashes=$(ls "$build/fuzz/artifacts/$t" 2>/dev/null | wc -l)
  printf '%-18s %12s %8s %8s %8s %8s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
done
