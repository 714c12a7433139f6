#include "harness/tiers/decline_rules.hpp"

#include <algorithm>

#include "harness/core/errors.hpp"

namespace mmaemu::tiers {
namespace {

const Schema& entry_schema() {
  static const Schema s = {
      required_key("backend", ValueType::string),
      required_key("reason", ValueType::string),
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

}  // namespace

KeySpec require_key() { return optional_key("require", ValueType::string_list); }
KeySpec allowed_declines_key() { return optional_key("allowed_declines", ValueType::sequence); }

DeclineRules DeclineRules::read(const SuiteSpec& spec, const std::vector<std::string>* runs) {
  DeclineRules r;
  if (spec.has("require")) {
    const SchemaValue& v = spec.values.at("require");
    for (const std::string& name : v.list) check_runs(runs, name, "require", v.where);
    r.required = v.list;
  }
  if (spec.has("allowed_declines")) {
    const std::string file = spec.tier_file.string();
    for (const YAML::Node& entry : spec.values.at("allowed_declines").node) {
      const SchemaValues v = check_mapping(entry, file, entry_schema(), "allowed decline", {});
      check_runs(runs, v.at("backend").text, "allowed_declines", v.at("backend").where);
      if (v.at("reason").text.empty()) throw InputError(v.at("reason").where, "an allowed decline needs a 'reason'");
      r.allowed.push_back({v.at("backend").text, v.at("reason").text, v.at("why").text});
    }
  }
  return r;
}

bool DeclineRules::allows(const std::string& backend, const std::string& decline) const {
  return std::any_of(allowed.begin(), allowed.end(), [&](const AllowedDecline& a) {
    return a.backend == backend && decline.find(a.reason) != std::string::npos;
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
    for (const auto& [why, n] : it->second.declines)
      if (!allows(name, why)) {
        refused += n;
        if (first.empty()) first = why;
      }
    if (refused > 0)
      out.push_back("required backend '" + name + "' declined " + std::to_string(refused) +
                    " problems for a reason the suite does not allow (first: " + first + ")");
  }
  return out;
}

}  // namespace mmaemu::tiers
