#include "harness/tiers/tier_loader.hpp"

#include <algorithm>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/tiers/known_mismatches.hpp"
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {
namespace {

const Schema& tier_schema() {
  static const Schema s = {
      required_key("tier", ValueType::string),
      optional_key("description", ValueType::string),
      required_key("suites", ValueType::sequence),
  };
  return s;
}

// Keys every suite has, whatever its kind.
const Schema& common_suite_keys() {
  static const Schema s = {
      required_key("name", ValueType::string),
      required_key("kind", ValueType::string),
      optional_key("labels", ValueType::string_list),
      optional_key("optional", ValueType::boolean),
      optional_key("quick", ValueType::boolean),
      optional_key("known_mismatches", ValueType::sequence),
  };
  return s;
}

// Tier and suite names become test names and report file names: keep them to a safe alphabet.
void check_name(const SchemaValue& v, const std::string& what) {
  const bool ok = std::all_of(v.text.begin(), v.text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
  if (!ok) throw InputError(v.where, what + " '" + v.text + "' may hold only letters, digits, '-' and '_'");
}

std::string kind_names() {
  std::string s;
  for (const SuiteKind& k : suite_kinds()) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

SuiteSpec load_suite(const YAML::Node& entry, const TierSpec& tier) {
  const std::string file = tier.file.string();
  const std::filesystem::path base = tier.file.parent_path();
  // The kind is looked up first, so that its keys are known when the rest of the entry is checked.
  // Without a usable `kind`, the entry is checked against the common keys alone, which reports the
  // missing or malformed `kind` at its place.
  const YAML::Node kind_node = entry.IsMap() ? entry["kind"] : YAML::Node();
  if (entry.IsMap() && !kind_node)
    throw InputError(where(file, entry), "suite lacks the required key 'kind'; known kinds: " + kind_names());
  const SuiteKind* kind = nullptr;
  if (kind_node && kind_node.IsScalar()) {
    kind = find_suite_kind(kind_node.Scalar());
    if (!kind)
      throw InputError(where(file, kind_node), "unknown suite kind '" + kind_node.Scalar() + "'; known kinds: " + kind_names());
  }
  Schema schema = common_suite_keys();
  if (kind) schema.insert(schema.end(), kind->keys.begin(), kind->keys.end());
  SchemaValues values = check_mapping(entry, file, schema, kind ? "suite of kind " + kind->name : "suite", base);

  SuiteSpec s;
  s.tier = tier.tier;
  s.tier_file = tier.file;
  s.where = where(file, entry);
  check_name(values.at("name"), "suite name");
  s.name = values.at("name").text;
  s.kind = values.at("kind").text;
  s.labels = values.count("labels") ? values.at("labels").list : std::vector<std::string>{tier.tier};
  s.optional = values.count("optional") && values.at("optional").flag;
  s.in_quick_form = !values.count("quick") || values.at("quick").flag;
  if (values.count("known_mismatches")) s.known_mismatches = read_known_mismatches(values.at("known_mismatches"), file);
  for (const KeySpec& k : common_suite_keys()) values.erase(k.name);
  s.values = std::move(values);
  return s;
}

}  // namespace

TierSpec load_tier(const std::filesystem::path& path) {
  const std::string file = path.string();
  const YAML::Node root = load_yaml_file(path);
  const SchemaValues top = check_mapping(root, file, tier_schema(), "tier file", path.parent_path());
  TierSpec t;
  t.file = path;
  check_name(top.at("tier"), "tier name");
  t.tier = top.at("tier").text;
  if (top.count("description")) t.description = top.at("description").text;
  const YAML::Node suites = top.at("suites").node;
  if (suites.size() == 0) throw InputError(top.at("suites").where, "a tier needs at least one suite");
  std::set<std::string> names;
  for (const YAML::Node& entry : suites) {
    SuiteSpec s = load_suite(entry, t);
    if (!names.insert(s.name).second)
      throw InputError(s.where, "suite name '" + s.name + "' is used twice in tier " + t.tier);
    t.suites.push_back(std::move(s));
  }
  return t;
}

std::string check_inputs(const SuiteSpec& suite) {
  const auto missing = suite.missing_inputs();
  if (missing.empty()) return "";
  if (!suite.optional) require_present(*missing.front());
  return missing.front()->missing_reason;
}

}  // namespace mmaemu
