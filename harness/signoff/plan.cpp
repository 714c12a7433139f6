#include "harness/core/input_file.hpp"
#include "harness/signoff/plan.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/yaml_schema.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

const Schema& plan_schema() {
  static const Schema s = {
      required_key("signoff", ValueType::string),
      optional_key("description", ValueType::string),
      required_key("preflight", ValueType::mapping),
      optional_key("device_code", ValueType::mapping),
      required_key("data", ValueType::mapping),
      required_key("steps", ValueType::sequence),
  };
  return s;
}

const Schema& step_schema() {
  static const Schema s = {
      required_key("name", ValueType::string),
      required_key("tier", ValueType::file).described_as("tier file"),
      optional_key("suites", ValueType::string_list),
      optional_key("quick", ValueType::boolean),
      optional_key("required", ValueType::boolean),
      optional_key("allow_skip", ValueType::sequence),
      optional_key("needs", ValueType::string_list),
      optional_key("timeout_minutes", ValueType::integer),
      optional_key("jobs", ValueType::integer),
      optional_key("require_pinned", ValueType::string_list),
  };
  return s;
}

const Schema& allowed_skip_schema() {
  static const Schema s = {
      required_key("suite", ValueType::string),
      required_key("reason", ValueType::string),
  };
  return s;
}

// Step names become folder and file names: keep them to a safe alphabet. The check entries of the
// record use the names below, so a step may not take them.
void check_step_name(const SchemaValue& v) {
  const bool ok = !v.text.empty() && std::all_of(v.text.begin(), v.text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
  if (!ok) throw InputError(v.where, "step name '" + v.text + "' may hold only letters, digits, '-' and '_'");
  for (const char* reserved : {"preflight", "device-code", "data", "comparison"})
    if (v.text == reserved) throw InputError(v.where, "step name '" + v.text + "' is the name of a check");
}

std::string file_sha256(const fs::path& file) {
  return sha256_hex(read_input_file(file, "a file the plan names"));
}

bool is_preflight_check(const std::string& name) {
  const auto& names = preflight_check_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

StepSpec load_step(const YAML::Node& entry, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(entry, file, step_schema(), "step", base);
  StepSpec s;
  s.where = where(file, entry);
  check_step_name(v.at("name"));
  s.name = v.at("name").text;
  require_present(v.at("tier"));
  s.tier_file = v.at("tier").path;
  if (v.count("suites")) s.suites = v.at("suites").list;
  if (v.count("quick")) s.quick = v.at("quick").flag;
  if (v.count("required")) s.required = v.at("required").flag;
  if (v.count("allow_skip"))
    for (const YAML::Node& a : v.at("allow_skip").node) {
      const SchemaValues av = check_mapping(a, file, allowed_skip_schema(), "allowed skip", base);
      if (av.at("reason").text.empty()) throw InputError(av.at("reason").where, "an allowed skip needs its reason");
      s.allow_skip.push_back({av.at("suite").text, av.at("reason").text});
    }
  if (v.count("require_pinned")) {
    s.require_pinned = v.at("require_pinned").list;
    for (const std::string& p : s.require_pinned)
      if (!ref::parse_arch(p))
        throw InputError(v.at("require_pinned").where, "'" + p + "' is no profile of the reference (`mmaemu info`)");
  }
  if (v.count("needs")) {
    s.needs = v.at("needs").list;
    for (const std::string& check : s.needs)
      if (!is_preflight_check(check))
        throw InputError(v.at("needs").where, "'" + check + "' is no preflight check; known: " + joined(preflight_check_names()));
  }
  if (v.count("timeout_minutes")) {
    const uint64_t minutes = v.at("timeout_minutes").number;
    if (minutes < 1 || minutes > 24 * 60) throw InputError(v.at("timeout_minutes").where, "'timeout_minutes' must be from 1 to 1440");
    s.timeout_seconds = 60.0 * static_cast<double>(minutes);
  }
  if (v.count("jobs")) {
    if (v.at("jobs").number < 1 || v.at("jobs").number > 256) throw InputError(v.at("jobs").where, "'jobs' must be from 1 to 256");
    s.jobs = static_cast<unsigned>(v.at("jobs").number);
  }
  return s;
}

}  // namespace

const AllowedSkip* StepSpec::allowed_skip(const std::string& suite) const {
  for (const AllowedSkip& a : allow_skip)
    if (a.suite == suite) return &a;
  return nullptr;
}

SignoffPlan load_plan(const fs::path& path) {
  const std::string file = path.string();
  const fs::path base = path.parent_path();
  const YAML::Node root = load_yaml_file(path);
  const SchemaValues v = check_mapping(root, file, plan_schema(), "sign-off plan", base);
  SignoffPlan p;
  p.file = path;
  p.sha256 = file_sha256(path);
  p.name = v.at("signoff").text;
  if (v.count("description")) p.description = v.at("description").text;
  p.preflight = preflight_spec_from_yaml(v.at("preflight").node, path);
  if (v.count("device_code")) p.device_code = device_code_spec_from_yaml(v.at("device_code").node, path);
  p.data = shipped_data_spec_from_yaml(v.at("data").node, path);
  std::set<std::string> names;
  for (const YAML::Node& entry : v.at("steps").node) {
    StepSpec s = load_step(entry, file, base);
    if (!names.insert(s.name).second) throw InputError(s.where, "step name '" + s.name + "' is used twice");
    p.steps.push_back(std::move(s));
  }
  if (p.steps.empty()) throw InputError(v.at("steps").where, "a sign-off plan needs at least one step");
  return p;
}

}  // namespace mmaemu::signoff
