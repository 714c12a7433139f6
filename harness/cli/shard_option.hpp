// `--shard` as run, mutate and signoff take it: "I/N", or "auto" (the scheduler's variables,
// core/shard.hpp), in one place.
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::cli {

// The shard `--shard` names; with "auto", where it came from is said on stderr. InputError for a bad one.
ShardInfo resolve_shard_option(const std::string& text);

// Where a command's reports go: `dir` itself, or under --shard auto <dir>/shard-I-of-N (every shard of a
// scheduler's job shares one --report-dir; `mmaemu merge <dir>/shard-*` joins them).
std::string sharded_directory(const std::string& dir, const std::string& text, const ShardInfo& shard);

}  // namespace mmaemu::cli
