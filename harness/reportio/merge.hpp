// The shards of one run merged back into what one unsharded machine would have written (timings
// aside): `mmaemu run --shard I/N` and `mmaemu mutate --shard I/N` on N machines, then `mmaemu merge`.
#pragma once
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::reportio {

// Every shard 1..N of one run exactly once (the same count N), with the same tool version, tier
// files and commit (a run split across machines must be one build); otherwise an InputError naming
// the file that disagrees. Suites ordered by position (a position held twice is an error). The
// result is unsharded: started the earliest, environment and host those of shard 1. `sources`
// names each shard's file, in the same order as `shards`.
RunReport merge_run_reports(const std::vector<RunReport>& shards, const std::vector<std::string>& sources);

// Likewise for kill matrices: the same tier, catalogue, commit, baseline file and tests (names and
// commands), each mutant in exactly one shard. Mutants sorted by id, planned the sum, the tests'
// baseline and timeout seconds those of shard 1, started the earliest, the baseline changes of all
// shards in the order one campaign writes them (by mutant id; the ones about mutants outside the run
// last, each once).
mutate::KillMatrix merge_kill_matrices(const std::vector<mutate::KillMatrix>& shards,
                                       const std::vector<std::string>& sources);

}  // namespace mmaemu::reportio
