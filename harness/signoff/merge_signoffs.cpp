#include "harness/signoff/merge_signoffs.hpp"

#include <algorithm>
#include <map>

#include "harness/core/errors.hpp"
#include "harness/signoff/signoff_report.hpp"

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

void copy_into(const fs::path& from_dir, const fs::path& to_dir, const std::string& relative) {
  const fs::path from = from_dir / relative;
  if (!fs::exists(from)) throw InputError(from.string(), "is named by the shard's record but is not there");
  fs::create_directories((to_dir / relative).parent_path());
  fs::copy(from, to_dir / relative, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// Every file an entry names, and a tier step's folder.
void copy_entry(const StepRecord& s, const fs::path& from, const fs::path& to) {
  for (const std::string& f : s.reports) copy_into(from, to, f);
  if (s.kind == "tier" && fs::is_directory(from / "steps" / s.name)) copy_into(from, to, "steps/" + s.name);
}

}  // namespace

bool is_signoff_directory(const fs::path& dir) { return fs::is_regular_file(dir / "signoff.json"); }

SignoffRecord merge_signoffs(const std::vector<fs::path>& dirs, const fs::path& out) {
  if (dirs.empty()) throw InputError("", "no sign-off shard given");
  std::vector<SignoffRecord> shards;
  for (const fs::path& d : dirs) {
    if (fs::exists(out) && fs::exists(d) && fs::equivalent(d, out))
      throw InputError(out.string(), "is one of the shards: merge into another directory");
    shards.push_back(read_signoff_record(d));
  }
  const SignoffRecord& first = shards.front();
  const unsigned count = first.shard.count;
  if (shards.size() != count)
    throw InputError(dirs.front().string(), "is shard " + std::to_string(first.shard.index) + " of " +
                                                std::to_string(count) + ", but " + std::to_string(shards.size()) +
                                                " shards were given");
  std::map<unsigned, size_t> by_index;
  for (size_t i = 0; i < shards.size(); ++i) {
    const SignoffRecord& s = shards[i];
    const std::string where = (dirs[i] / "signoff.json").string();
    if (s.plan_sha256 != first.plan_sha256) throw InputError(where, "follows another plan than " + dirs.front().string());
    if (s.shard.count != count) throw InputError(where, "is one of " + std::to_string(s.shard.count) + " shards, not " + std::to_string(count));
    if (!s.complete) throw InputError(where, "is an incomplete sign-off: resume it first (--resume)");
    if (!by_index.emplace(s.shard.index, i).second) throw InputError(where, "is shard " + std::to_string(s.shard.index) + " a second time");
  }
  // Every shard checked the same build on the same kind of machine: their checks must agree.
  for (const SignoffRecord& s : shards)
    for (const StepRecord& c : s.steps)
      if (c.kind == "check")
        for (const StepRecord& c1 : first.steps)
          if (c1.name == c.name && c1.verdict != c.verdict)
            throw InputError(dirs[by_index.at(s.shard.index)].string(),
                             "its " + c.name + " says " + verdict_name(c.verdict) + ", shard " +
                                 std::to_string(first.shard.index) + "'s says " + verdict_name(c1.verdict));

  SignoffRecord merged = first;
  merged.shard = ShardInfo{};
  merged.steps.clear();
  std::vector<std::pair<const StepRecord*, const fs::path*>> tier_steps;
  for (size_t i = 0; i < shards.size(); ++i) {
    merged.started_utc = std::min(merged.started_utc, shards[i].started_utc);
    merged.finished_utc = std::max(merged.finished_utc, shards[i].finished_utc);
    for (const StepRecord& s : shards[i].steps)
      if (s.kind == "tier") tier_steps.emplace_back(&s, &dirs[i]);
  }
  std::stable_sort(tier_steps.begin(), tier_steps.end(),
                   [](const auto& a, const auto& b) { return a.first->position < b.first->position; });
  fs::create_directories(out);
  const fs::path& first_dir = dirs[by_index.begin()->second];
  // The record's order: the checks that precede the steps, the steps, then those that follow them.
  for (const StepRecord& c : shards[by_index.begin()->second].steps)
    if (c.kind == "check" && c.name != "comparison") {
      copy_entry(c, first_dir, out);
      merged.steps.push_back(c);
    }
  for (size_t i = 0; i < tier_steps.size(); ++i) {
    if (i > 0 && tier_steps[i].first->position == tier_steps[i - 1].first->position)
      throw InputError(tier_steps[i].second->string(), "runs step " + tier_steps[i].first->name + " that another shard ran too");
    copy_entry(*tier_steps[i].first, *tier_steps[i].second, out);
    merged.steps.push_back(*tier_steps[i].first);
  }
  merged.verdict = overall_verdict(merged.steps);
  merged.complete = true;
  write_signoff_reports(merged, out, {"The checks' own tables are in the shards' signoff.md; their rows are in the JSON files beside this one.\n"});
  return merged;
}

}  // namespace mmaemu::signoff
