#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/reportio/merge.hpp"
#include "harness/reportio/shard_set.hpp"

namespace mmaemu::reportio {
namespace {

using mutate::KillMatrix;
using mutate::MutantResult;

// The tests as the tier file names them: what every shard must have run alike. Their measured
// baseline and timeout seconds may differ from machine to machine.
nlohmann::json test_list(const KillMatrix& m) {
  nlohmann::json tests = nlohmann::json::array();
  for (const mutate::TestInfo& t : m.tests) tests.push_back({{"name", t.name}, {"command", t.command}});
  return tests;
}

// compare_with_baseline writes one line per mutant of the run, by id ("M12: ..."), then one per
// mutant of the baseline that is not in the run. Each shard wrote the lines of its own mutants; merged,
// they come in the order one campaign would have written them, and a line that several shards wrote
// (about a mutant outside the run, which every shard may see) comes once.
std::vector<std::string> merged_baseline_changes(const KillMatrix& merged, const std::vector<std::string>& lines) {
  struct Keyed {
    int group;  // 0: about a mutant of the run, 1: about another mutant, 2: about no mutant
    int id;
    std::string line;
  };
  std::vector<Keyed> keyed;
  std::set<std::string> seen;
  for (const std::string& line : lines) {
    if (!seen.insert(line).second) continue;
    int id = 0;
    const bool names_mutant = line.size() > 1 && line[0] == 'M' &&
                              std::from_chars(line.data() + 1, line.data() + line.size(), id).ec == std::errc();
    if (!names_mutant)
      keyed.push_back({2, 0, line});
    else
      keyed.push_back({merged.find(id) ? 0 : 1, id, line});
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const Keyed& a, const Keyed& b) { return a.group != b.group ? a.group < b.group : a.id < b.id; });
  std::vector<std::string> out;
  for (Keyed& k : keyed) out.push_back(std::move(k.line));
  return out;
}

}  // namespace

KillMatrix merge_kill_matrices(const std::vector<KillMatrix>& shards, const std::vector<std::string>& sources) {
  std::vector<ShardInfo> infos;
  for (const KillMatrix& m : shards) infos.push_back(m.shard);
  const std::vector<size_t> order = order_shards(infos, sources);
  const KillMatrix& first = shards[order[0]];
  const std::string& first_source = sources[order[0]];

  KillMatrix merged;
  merged.tier = first.tier;
  merged.catalogue = first.catalogue;
  merged.commit = first.commit;
  merged.tests = first.tests;
  merged.baseline_file = first.baseline_file;
  std::vector<std::string> started, changes;
  std::map<int, size_t> holder;  // mutant id -> the shard (index into `shards`) that ran it
  for (size_t i : order) {
    const KillMatrix& m = shards[i];
    require_same("tier", first.tier, first_source, m.tier, sources[i]);
    require_same("catalogue", first.catalogue, first_source, m.catalogue, sources[i]);
    require_same("commit", first.commit, first_source, m.commit, sources[i]);
    require_same("tests", test_list(first), first_source, test_list(m), sources[i]);
    require_same("baseline file", first.baseline_file, first_source, m.baseline_file, sources[i]);
    started.push_back(m.started);
    merged.planned += m.planned;
    for (const MutantResult& r : m.mutants) {
      const auto [at, fresh] = holder.emplace(r.mutant.id, i);
      if (!fresh)
        throw InputError(sources[i], "mutant M" + std::to_string(r.mutant.id) + " (" + r.mutant.name + ") is in " +
                                         sources[at->second] + " too");
      merged.mutants.push_back(r);
    }
    changes.insert(changes.end(), m.baseline_changes.begin(), m.baseline_changes.end());
  }
  merged.started = earliest(started);
  std::sort(merged.mutants.begin(), merged.mutants.end(),
            [](const MutantResult& a, const MutantResult& b) { return a.mutant.id < b.mutant.id; });
  merged.baseline_changes = merged_baseline_changes(merged, changes);
  return merged;
}

}  // namespace mmaemu::reportio
