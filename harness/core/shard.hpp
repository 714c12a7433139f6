// Splitting one run across machines: `--shard I/N` on run, mutate and signoff. The work (suites,
// mutants, sign-off steps) is numbered in the order one machine would run it, and shard I takes
// every item whose position p has p mod N == I - 1. The rule is deterministic and needs no
// coordination, so the shards of a CI matrix or a batch scheduler's array jobs can run anywhere;
// `mmaemu merge` puts their reports back together in position order.
#pragma once
#include <cstddef>
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu {

// Parses "I/N" (1 <= I <= N). Throws InputError naming `where` ("--shard") for anything else:
// "3/2", "0/0", "1/0", "a/b", "2".
ShardInfo parse_shard(const std::string& text, const std::string& where = "--shard");

// Whether the item at `position` (0-based, in the unsharded order) belongs to `shard`.
inline bool in_shard(size_t position, const ShardInfo& shard) {
  return position % shard.count == shard.index - 1;
}

// "2/3", or "" when not sharded.
std::string shard_text(const ShardInfo& shard);

// `--shard auto`: the shard a batch scheduler or CI gave this process, read from its environment, so
// that one job file runs every shard without glue. Looked for in this order (the first found wins):
//   MMAEMU_SHARD=I/N                                   any CI matrix or script
//   SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT        a Slurm array job (--array=A-B, any first id:
//     and SLURM_ARRAY_TASK_MIN                           I = ID - MIN + 1, N = COUNT; a step like 0-7:2 refused)
//   JOB_COMPLETION_INDEX and MMAEMU_SHARD_COUNT        a Kubernetes Indexed Job (0-based index; the job file
//                                                        passes its `completions` as the count)
//   CI_NODE_INDEX and CI_NODE_TOTAL                    a GitLab CI `parallel:` job (1-based)
// `source` receives where it came from ("SLURM_ARRAY_TASK_ID=3 of SLURM_ARRAY_TASK_COUNT=4"). Throws
// InputError naming `where` when none is set, or a value is not a shard. `getenv` is the environment.
using EnvLookup = const char* (*)(const char*);
ShardInfo shard_from_environment(const std::string& where, std::string* source, EnvLookup getenv);

// Parses `--shard`: "I/N", or "auto" (shard_from_environment on the process's environment).
ShardInfo resolve_shard(const std::string& text, const std::string& where = "--shard", std::string* source = nullptr);

// Where a shard's reports go under a report directory shared by every shard (a scheduler's array tasks
// writing to one file system): <dir>/shard-I-of-N; `mmaemu merge <dir>/shard-*` joins them.
std::string shard_directory_name(const ShardInfo& shard);

}  // namespace mmaemu
