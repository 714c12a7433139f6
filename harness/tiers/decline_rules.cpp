#include "harness/tiers/decline_rules.hpp"

#include <algorithm>
#include <charconv>

#include "harness/core/errors.hpp"
#include "kernels/backend_names.hpp"

namespace mmaemu::tiers {
namespace {

std::vector<std::string> code_names() {
  std::vector<std::string> names;
  for (const DeclineCodeInfo& i : decline_codes()) names.emplace_back(i.name);
  return names;
}

const Schema& entry_schema() {
  static const Schema s = {
      required_key("backend", ValueType::string),
      required_key("code", ValueType::string).one_of(code_names()),
      optional_key("algorithms", ValueType::string_list),
      required_key("why", ValueType::string),
  };
  return s;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void check_runs(const std::vector<std::string>* runs, const std::string& name, const std::string& key,
                const std::string& where) {
  if (runs && std::find(runs->begin(), runs->end(), name) == runs->end())
    throw InputError(where, "'" + key + "' names '" + name + "', which the suite does not run (it runs: " + joined(*runs) + ")");
}

std::vector<int> algorithm_ids(const SchemaValue& v) {
  std::vector<int> ids;
  for (const std::string& s : v.list) {
    int id = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
    if (ec != std::errc() || end != s.data() + s.size() || id < 0)
      throw InputError(v.where, "'algorithms' lists cuBLASLt algorithm IDs (whole numbers), not '" + s + "'");
    ids.push_back(id);
  }
  return ids;
}

AllowedDecline entry_of(const YAML::Node& entry, const std::string& file) {
  // `reason`, a piece of the message matched as text, was how entries were written before codes.
  if (entry.IsMap() && entry["reason"] && !entry["code"])
    throw InputError(where(file, entry["reason"]),
                     "an allowed decline names a 'code' (one of: " + joined(code_names()) +
                         "), not a 'reason' matched against the message");
  const SchemaValues v = check_mapping(entry, file, entry_schema(), "allowed decline", {});
  AllowedDecline a{kernels::canonical_backend_name(v.at("backend").text), *parse_decline_code(v.at("code").text), {}, v.at("why").text};
  if (v.count("algorithms")) {
    if (a.code != DeclineCode::library_algorithm_without_rules && a.code != DeclineCode::library_configuration_without_rules)
      throw InputError(v.at("algorithms").where, "'algorithms' narrows codes library-algorithm-without-rules and "
                                                 "library-configuration-without-rules only");
    a.algorithms = algorithm_ids(v.at("algorithms"));
  }
  if (a.why.empty()) throw InputError(v.at("why").where, "an allowed decline says 'why' it is expected");
  return a;
}

}  // namespace

KeySpec require_key() { return optional_key("require", ValueType::string_list); }
KeySpec allowed_declines_key() { return optional_key("allowed_declines", ValueType::sequence); }

DeclineRules DeclineRules::read(const SuiteSpec& spec, const std::vector<std::string>* runs) {
  DeclineRules r;
  if (spec.has("require")) {
    const SchemaValue& v = spec.values.at("require");
    for (const std::string& name : v.list) r.required.push_back(kernels::canonical_backend_name(name));
    for (const std::string& name : r.required) check_runs(runs, name, "require", v.where);
  }
  if (spec.has("allowed_declines")) {
    const std::string file = spec.tier_file.string();
    for (const YAML::Node& entry : spec.values.at("allowed_declines").node) {
      AllowedDecline a = entry_of(entry, file);
      check_runs(runs, a.backend, "allowed_declines", where(file, entry["backend"]));
      r.allowed.push_back(std::move(a));
    }
  }
  return r;
}

bool DeclineRules::allows(const std::string& backend, const DeclineTally& decline) const {
  return std::any_of(allowed.begin(), allowed.end(), [&](const AllowedDecline& a) {
    if (a.backend != backend || decline_code_name(a.code) != decline.code) return false;
    return a.algorithms.empty() ||
           (decline.algorithm && std::count(a.algorithms.begin(), a.algorithms.end(), *decline.algorithm) > 0);
  });
}

std::vector<std::string> DeclineRules::failures(const Coverage& coverage) const {
  std::vector<std::string> out;
  for (const std::string& name : required) {
    const auto it = coverage.find(name);
    if (it == coverage.end() || it->second.ran == 0) {
      out.push_back("required backend '" + name + "' did not run");
      continue;
    }
    size_t refused = 0;
    std::string first;
    for (const auto& [detail, tally] : it->second.declines)
      if (!allows(name, tally)) {
        refused += tally.problems;
        if (first.empty()) first = tally.code + ": " + detail;
      }
    if (refused > 0)
      out.push_back("required backend '" + name + "' declined " + std::to_string(refused) +
                    " problems for a reason the suite does not allow (first: " + first + ")");
  }
  return out;
}

}  // namespace mmaemu::tiers
