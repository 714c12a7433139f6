#!/usr/bin/env bash
# --shard I/N and --shard auto (a Slurm array's and a Kubernetes Indexed Job's variables) on `mmaemu run`
# and `mmaemu mutate`: N shards run one after the other on this machine,
# merged with `mmaemu merge`, equal the unsharded run (`mmaemu compare`: 0 differences, timings,
# dates and paths aside). Usage: shard_merge_test.sh SOURCE_DIR MMAEMU WORK_DIR
set -uo pipefail
src=$1 mmaemu=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
cd "$src"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$@" >"$work/last.out" 2>&1 || { cat "$work/last.out"; fail "exit $?: $*"; }; }

# Conformance suites of two tier files and a throughput tier (a whole unit in one shard) in 3 shards.
tiers=(tiers/T2.yaml tiers/T3.yaml tiers/T6.yaml)
suites=(--suite h200-fixtures --suite km-external --suite h200-cublaslt-first-rows --suite t3-host-quick
        --suite T6.benchmarks)
run "$mmaemu" run "${tiers[@]}" "${suites[@]}" --quick --quiet --report-dir "$work/run/whole" --report-stem main
for i in 1 2 3; do
  run "$mmaemu" run "${tiers[@]}" "${suites[@]}" --quick --quiet --shard $i/3 --report-dir "$work/run/$i" --report-stem main
done
run "$mmaemu" merge "$work/run/1" "$work/run/2" "$work/run/3" --out "$work/run/merged"
run "$mmaemu" compare "$work/run/whole/main.json" "$work/run/merged/main.json"
grep -q "^0 differences" "$work/last.out" || { cat "$work/last.out"; fail "merged run shards differ from the whole run"; }

# The same shards as a Slurm array job runs them (--array=4-6: ids from 4), `--shard auto` reading the
# task's variables, every task writing under one --report-dir: shard-I-of-N directories merged by glob.
for id in 4 5 6; do
  SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_MAX=6 \
    run "$mmaemu" run "${tiers[@]}" "${suites[@]}" --quick --quiet --shard auto --report-dir "$work/run/slurm" --report-stem main
done
[ -d "$work/run/slurm/shard-2-of-3" ] || fail "--shard auto did not write under shard-2-of-3"
run "$mmaemu" merge "$work/run/slurm"/shard-* --out "$work/run/slurm-merged"
run "$mmaemu" compare "$work/run/whole/main.json" "$work/run/slurm-merged/main.json"
grep -q "^0 differences" "$work/last.out" || { cat "$work/last.out"; fail "the Slurm array's shards differ from the whole run"; }

# The mutants of a campaign in 2 shards: a reference mutant, a comparator mutant, an equivalent one
# and an identity control, judged by the catalogue's unit tests only (each under a second; T4-cpu's
# whole test list is T4.cpu's and the sign-off's, and what is merged here does not depend on it).
build=$(cd "$(dirname "$mmaemu")/../.." && pwd)
cat >"$work/T4-shard.yaml" <<YAML
tier: T4-shard
catalogue: $src/mutants/catalogue.yaml
catalogue_tiers: [cpu]
workdir: $src
program: "{build}/harness/cli/mmaemu-mutant"
jobs: 2
timeout: {factor: 3, slack_seconds: 2, min_seconds: 5, confirm_factor: 4}
tests:
  - {name: reference_tests, command: ["{build}/reference/tests/reference_tests-mutant", --gtest_brief=1]}
  - {name: harness_core_tests, command: ["{build}/harness/core/tests/harness_core_tests-mutant", --gtest_brief=1]}
YAML
mutants=(--only 19 --only 70 --only 12 --only 90)
run "$mmaemu" mutate "$work/T4-shard.yaml" "${mutants[@]}" --quiet --report-dir "$work/mutate/whole"
for i in 1 2; do
  run "$mmaemu" mutate "$work/T4-shard.yaml" "${mutants[@]}" --quiet --shard $i/2 --report-dir "$work/mutate/$i"
done
run "$mmaemu" merge "$work/mutate/1" "$work/mutate/2" --out "$work/mutate/merged"
run "$mmaemu" compare "$work/mutate/whole/T4-shard.json" "$work/mutate/merged/T4-shard.json"
grep -q "^0 differences" "$work/last.out" || { cat "$work/last.out"; fail "merged campaign shards differ from the whole campaign"; }

# The campaign's shards as a Kubernetes Indexed Job runs them (completions 2: JOB_COMPLETION_INDEX 0 and 1,
# the count passed as MMAEMU_SHARD_COUNT).
for index in 0 1; do
  JOB_COMPLETION_INDEX=$index MMAEMU_SHARD_COUNT=2 \
    run "$mmaemu" mutate "$work/T4-shard.yaml" "${mutants[@]}" --quiet --shard auto --report-dir "$work/mutate/k8s"
done
run "$mmaemu" merge "$work/mutate/k8s"/shard-* --out "$work/mutate/k8s-merged"
run "$mmaemu" compare "$work/mutate/whole/T4-shard.json" "$work/mutate/k8s-merged/T4-shard.json"
grep -q "^0 differences" "$work/last.out" || { cat "$work/last.out"; fail "the Indexed Job's shards differ from the whole campaign"; }

# Shards that do not belong together are refused.
"$mmaemu" merge "$work/run/1" "$work/run/2" --out "$work/run/bad" >"$work/last.out" 2>&1
[ $? = 2 ] || { cat "$work/last.out"; fail "merging 2 of 3 shards must exit 2"; }
echo "PASS: run and mutate shards merged (given by hand, by a Slurm array and by a Kubernetes Indexed Job) equal the unsharded runs"
