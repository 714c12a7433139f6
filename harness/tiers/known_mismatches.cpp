#include "harness/tiers/known_mismatches.hpp"

#include <set>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"

namespace mmaemu {
namespace {

const Schema& entry_schema() {
  static const Schema s = {
      required_key("group", ValueType::string),
      required_key("reason", ValueType::string),
  };
  return s;
}

// Why the list itself is wrong for this result; empty when every entry matches a differing group.
std::vector<std::string> stale_entries(const SuiteResult& result, const SuiteSpec& spec) {
  std::vector<std::string> out;
  for (const KnownMismatch& k : spec.known_mismatches) {
    const auto it = result.groups.find(k.group);
    if (it == result.groups.end())
      out.push_back("known mismatch " + k.group + " names no group of this suite");
    else if (it->second.mismatched == 0)
      out.push_back("known mismatch " + k.group + " no longer occurs: remove it from " + spec.tier_file.string());
  }
  return out;
}

}  // namespace

std::vector<KnownMismatch> read_known_mismatches(const SchemaValue& list, const std::string& file) {
  std::vector<KnownMismatch> out;
  std::set<std::string> groups;
  for (const YAML::Node& entry : list.node) {
    const SchemaValues v = check_mapping(entry, file, entry_schema(), "known mismatch", {});
    KnownMismatch k{v.at("group").text, v.at("reason").text, where(file, entry)};
    if (!groups.insert(k.group).second)
      throw InputError(v.at("group").where, "known mismatch " + k.group + " is listed twice");
    out.push_back(std::move(k));
  }
  return out;
}

void apply_known_mismatches(SuiteResult& result, const SuiteSpec& spec) {
  if (spec.known_mismatches.empty() || result.verdict == Verdict::skip) return;
  result.known_mismatched = 0;
  for (const KnownMismatch& k : spec.known_mismatches) {
    const auto it = result.groups.find(k.group);
    if (it == result.groups.end()) continue;
    it->second.known_reason = k.reason;
    result.known_mismatched += it->second.mismatched;
  }
  for (Mismatch& m : result.first_mismatches) {
    const auto it = result.groups.find(m.group);
    m.known = it != result.groups.end() && it->second.known();
  }
  // An error says the input was unusable; known mismatches do not change that.
  if (result.verdict == Verdict::error) return;

  // The kind's verdict stands unless it failed on mismatches; then only those outside known groups count.
  const size_t unknown = result.mismatched - result.known_mismatched;
  if (result.verdict == Verdict::fail && result.mismatched > 0 && result.known_mismatched > 0) {
    if (unknown == 0) {
      // Only the mismatches are forgiven: any other failure of the suite stands, with its reason.
      result.verdict = result.failures.empty() ? Verdict::pass : Verdict::fail;
      result.reason.clear();
      for (const std::string& f : result.failures) result.reason += (result.reason.empty() ? "" : "; ") + f;
    } else {
      result.reason = std::to_string(unknown) + " of " + std::to_string(result.compared) +
                      " outputs differ outside the known mismatches: " + differing_groups(result, false);
    }
  }
  // The reason names what fails the suite first, then the known mismatches.
  for (const std::string& stale : stale_entries(result, spec)) {
    result.verdict = Verdict::fail;
    result.reason += (result.reason.empty() ? "" : "; ") + stale;
  }
  if (result.known_mismatched > 0)
    result.reason += (result.reason.empty() ? "" : "; ") + std::string("known mismatches: ") +
                     differing_groups(result, true);
}

}  // namespace mmaemu
