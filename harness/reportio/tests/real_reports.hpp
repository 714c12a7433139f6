// Real documents for the tests: a run report from a real run of this tree's tiers, and the committed
// kill matrix. Helpers to split them into shards as `--shard I/N` does (position p goes to shard
// p mod N + 1).
#pragma once
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::testing {

// The JSON of `mmaemu run tiers/T2.yaml tiers/T3.yaml --suite h200-fixtures --suite km-external
// --suite h200-cublaslt-first-rows --suite t3-host-quick` (km-external skips where its archive is
// absent), run once per build of the tests.
const std::string& real_run_json();

// mutants/baseline-cpu.json, as committed.
const std::string& real_kill_matrix_json();

// The shards 1..n of `run`, its suites dealt out by position.
std::vector<RunReport> split_run(const RunReport& run, unsigned n);
std::vector<mutate::KillMatrix> split_matrix(const mutate::KillMatrix& m, unsigned n);

// "shard-1.json", ... : names for the shards' sources.
std::vector<std::string> shard_sources(size_t n);

}  // namespace mmaemu::testing
