#include <algorithm>
#include <map>

#include "harness/core/errors.hpp"
#include "harness/reportio/merge.hpp"
#include "harness/reportio/shard_set.hpp"

namespace mmaemu::reportio {

RunReport merge_run_reports(const std::vector<RunReport>& shards, const std::vector<std::string>& sources) {
  std::vector<ShardInfo> infos;
  for (const RunReport& r : shards) infos.push_back(r.shard);
  const std::vector<size_t> order = order_shards(infos, sources);
  const RunReport& first = shards[order[0]];
  const std::string& first_source = sources[order[0]];

  RunReport merged;
  merged.tool_version = first.tool_version;
  merged.commit = first.commit;
  merged.host = first.host;
  merged.environment = first.environment;
  merged.tier_files = first.tier_files;
  std::vector<std::string> started;
  std::map<size_t, size_t> holder;  // position -> the shard (index into `shards`) whose suite holds it
  for (size_t i : order) {
    const RunReport& r = shards[i];
    require_same("tool version", first.tool_version, first_source, r.tool_version, sources[i]);
    require_same("tier files", first.tier_files, first_source, r.tier_files, sources[i]);
    require_same("commit", first.commit, first_source, r.commit, sources[i]);
    started.push_back(r.started_utc);
    // The merge is as whole as its least whole shard, and has the shards' inputs when they agree.
    merged.planned += r.planned;
    if (i == order[0]) merged.inputs_sha256 = r.inputs_sha256;
    if (r.inputs_sha256 != merged.inputs_sha256) merged.inputs_sha256.clear();
    if (r.state != RunState::complete && merged.state != RunState::interrupted) merged.state = r.state;
    for (const SuiteResult& s : r.suites) {
      const auto [at, fresh] = holder.emplace(s.position, i);
      if (!fresh)
        throw InputError(sources[i], "suite " + s.tier + "." + s.suite + " at position " + std::to_string(s.position) +
                                         ": " + sources[at->second] + " has a suite at that position too");
      merged.suites.push_back(s);
    }
  }
  merged.started_utc = earliest(started);
  std::stable_sort(merged.suites.begin(), merged.suites.end(),
                   [](const SuiteResult& a, const SuiteResult& b) { return a.position < b.position; });
  return merged;
}

}  // namespace mmaemu::reportio
