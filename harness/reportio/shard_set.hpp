// What every merge checks first: that the documents are the shards of one run, and that what one
// machine would have decided once (the tier files, the build, the tests) every machine decided alike.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/result.hpp"

namespace mmaemu::reportio {

// The same count N in every shard and every index 1..N exactly once; otherwise an InputError naming
// the file that disagrees (or, for a missing index, every file given). Returns the positions in
// `shards` ordered by shard index: order[0] is shard 1. `sources` names each shard's file.
std::vector<size_t> order_shards(const std::vector<ShardInfo>& shards, const std::vector<std::string>& sources);

// Throws InputError naming `source` when `value` differs from `reference`, which is what the file
// `reference_source` holds: "<what> <value> differs from <reference> in <reference_source>".
void require_same(const std::string& what, const nlohmann::json& reference, const std::string& reference_source,
                  const nlohmann::json& value, const std::string& source);

// The earliest of ISO 8601 UTC times ("2026-12-01T06:35:14Z" sorts as text); empty ones are ignored.
std::string earliest(const std::vector<std::string>& utc_times);

}  // namespace mmaemu::reportio
