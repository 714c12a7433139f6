#include "harness/mutate/baseline_diff.hpp"

namespace mmaemu::mutate {
namespace {

std::string bracketed(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return "[" + s + "]";
}

bool killed(const MutantResult& r) { return !r.killed_by.empty(); }

std::string state(const MutantResult& r) {
  return killed(r) ? std::string(to_string(r.outcome)) + " by " + bracketed(r.killed_by) : to_string(r.outcome);
}

}  // namespace

std::vector<BaselineChange> compare_with_baseline(const KillMatrix& baseline, const KillMatrix& current,
                                                  bool compare_tests, bool whole_catalogue) {
  std::vector<BaselineChange> changes;
  for (const MutantResult& now : current.mutants) {
    const std::string label = "M" + std::to_string(now.mutant.id);
    const MutantResult* before = baseline.find(now.mutant.id);
    if (!before) {
      changes.push_back({now.mutant.id, label + " (" + now.mutant.name + "): new, " + state(now), false});
      continue;
    }
    BaselineChange c{now.mutant.id, "", killed(*before) && !killed(now)};
    if (before->mutant.name != now.mutant.name)
      c.text = label + ": was '" + before->mutant.name + "', now '" + now.mutant.name + "'; ";
    const bool same_kill = compare_tests ? before->killed_by == now.killed_by : killed(*before) == killed(now);
    if (!same_kill || before->outcome != now.outcome) {
      if (killed(*before) && killed(now) && before->outcome == now.outcome)
        c.text += label + ": " + to_string(now.outcome) + " by " + bracketed(before->killed_by) + " before, " +
                  bracketed(now.killed_by) + " now";
      else
        c.text += label + ": " + state(*before) + " before, " + state(now) + " now";
    }
    if (c.text.size() >= 2 && c.text.compare(c.text.size() - 2, 2, "; ") == 0) c.text.resize(c.text.size() - 2);
    if (c.regression) c.text += " (regression: killed before, not now)";
    if (!c.text.empty()) changes.push_back(std::move(c));
  }
  if (whole_catalogue)
    for (const MutantResult& before : baseline.mutants)
      if (!current.find(before.mutant.id))
        changes.push_back({before.mutant.id,
                           "M" + std::to_string(before.mutant.id) + " (" + before.mutant.name + "): " +
                               state(before) + " before, no longer in the catalogue",
                           false});
  return changes;
}

}  // namespace mmaemu::mutate
