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

}  // namespace mmaemu
