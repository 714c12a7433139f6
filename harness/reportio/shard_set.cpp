#include "harness/reportio/shard_set.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/core/errors.hpp"

namespace mmaemu::reportio {
namespace {

std::string shard_text(const ShardInfo& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

}  // namespace

std::vector<size_t> order_shards(const std::vector<ShardInfo>& shards, const std::vector<std::string>& sources) {
  if (shards.size() != sources.size()) throw std::invalid_argument("order_shards: one source per shard");
  if (shards.empty()) throw InputError("", "no shards to merge");
  const unsigned count = shards[0].count;
  std::vector<size_t> by_index(count, shards.size());  // shards.size(): not seen yet
  for (size_t i = 0; i < shards.size(); ++i) {
    const ShardInfo& s = shards[i];
    if (s.count != count)
      throw InputError(sources[i], "shard " + shard_text(s) + " is one of " + std::to_string(s.count) + " shards, but " +
                                       sources[0] + " is shard " + shard_text(shards[0]));
    if (s.index < 1 || s.index > count) throw InputError(sources[i], "shard " + shard_text(s) + ": no such index");
    size_t& seen = by_index[s.index - 1];
    if (seen != shards.size())
      throw InputError(sources[i], "shard " + shard_text(s) + " given twice: " + sources[seen] + " is shard " + shard_text(s) + " too");
    seen = i;
  }
  for (unsigned k = 0; k < count; ++k) {
    if (by_index[k] != shards.size()) continue;
    std::string given;
    for (size_t i = 0; i < shards.size(); ++i) given += (given.empty() ? "" : ", ") + sources[i] + " (" + shard_text(shards[i]) + ")";
    throw InputError("", "shard " + std::to_string(k + 1) + "/" + std::to_string(count) + " is missing; given: " + given);
  }
  return by_index;
}

void require_same(const std::string& what, const nlohmann::json& reference, const std::string& reference_source,
                  const nlohmann::json& value, const std::string& source) {
  if (value != reference)
    throw InputError(source, what + " " + value.dump() + " differs from " + reference.dump() + " in " + reference_source);
}

std::string earliest(const std::vector<std::string>& utc_times) {
  std::string first;
  for (const std::string& t : utc_times)
    if (!t.empty() && (first.empty() || t < first)) first = t;
  return first;
}

}  // namespace mmaemu::reportio
