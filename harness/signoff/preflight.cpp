// Preflight: reading the environment sources, comparing them with what was observed, the plan section.
// What is observed (CUDA runtime, git, this build) is in preflight_observe.cpp.
#include "harness/core/input_file.hpp"
#include "harness/signoff/preflight.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::signoff {
namespace fs = std::filesystem;

namespace {

// Where a check's expected value comes from.
enum class From {
  recorded,           // the recorded value under `key`, as it is
  host_compiler,      // the host part of the recorded "nvcc 13.0.88 / g++ 12.2.0"
  cuda_compiler,      // its nvcc part
  cublaslt_file,      // the library file name the recorded version implies ("libcublasLt.so.13*")
  nothing,            // no recording holds it: only the plan's `expect:` or the fixed rule
};

struct CheckDef {
  std::string_view name;
  From from;
  std::string_view key;    // in `recorded:` / `provenance`
  std::string_view fixed;  // the expectation when no source names one ("a commit", "clean")
};

constexpr CheckDef kChecks[] = {
    {"gpu_name", From::recorded, "gpu", ""},
    {"compute_capability", From::recorded, "compute_capability", ""},
    {"sm_count", From::recorded, "sm_count", ""},
    {"gpu_memory", From::nothing, "", ""},
    {"driver", From::recorded, "driver", ""},
    {"cuda_runtime", From::recorded, "cuda_runtime", ""},
    {"cublaslt_version", From::recorded, "cublaslt", ""},
    {"cublaslt_file", From::cublaslt_file, "cublaslt", ""},
    {"compiler", From::host_compiler, "compiler", ""},
    {"cuda_compiler", From::cuda_compiler, "compiler", ""},
    {"build_flags", From::nothing, "", ""},
    {"commit", From::nothing, "", "a commit"},
    {"clean_worktree", From::nothing, "", "clean"},
};

struct Expected {
  std::string value;
  std::string where;
};

// One environment source: its recorded values by key, each with where it was read.
struct EnvironmentSource {
  std::map<std::string, Expected> values;
};

std::string shown(const fs::path& p) { return display_path(p, fs::current_path()); }

EnvironmentSource read_recording_json(const fs::path& path) {
  const std::string file = shown(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_input_file(path, "the environment source"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("provenance") || !j["provenance"].is_object())
    throw InputError(file, "has no 'provenance' object: not a recording");
  EnvironmentSource s;
  for (const auto& [key, value] : j["provenance"].items()) {
    if (!value.is_string()) throw InputError(file, "provenance." + key + " must be a string");
    s.values[key] = {value.get<std::string>(), file};
  }
  return s;
}

EnvironmentSource read_manifest_yaml(const fs::path& path) {
  const std::string file = shown(path);
  const YAML::Node root = load_yaml_file(path);
  const YAML::Node recorded = root["recorded"];
  if (!recorded || !recorded.IsMap())
    throw InputError(where(file, recorded ? recorded : root), "has no 'recorded:' mapping: not a fixture manifest");
  EnvironmentSource s;
  for (auto it = recorded.begin(); it != recorded.end(); ++it) {
    if (!it->second.IsScalar()) throw InputError(where(file, it->second), "recorded values are strings");
    s.values[it->first.Scalar()] = {it->second.Scalar(), where(file, it->second)};
  }
  return s;
}

bool is_json(const fs::path& p) { return p.extension() == ".json"; }
bool is_yaml(const fs::path& p) { return p.extension() == ".yaml" || p.extension() == ".yml"; }

EnvironmentSource read_source(const fs::path& path) {
  std::error_code ec;  // a path the system cannot even look up (too long, ...) is not found, not a crash
  if (!fs::is_regular_file(path, ec)) throw InputError(shown(path), "environment source not found");
  if (is_json(path)) return read_recording_json(path);
  if (is_yaml(path)) return read_manifest_yaml(path);
  throw InputError(shown(path), "an environment source is a fixture manifest (.yaml) or a recording (.json)");
}

// The recorded value turned into what `def` compares with; nullopt when it has no such part.
std::optional<std::string> expectation_from(const CheckDef& def, const std::string& recorded) {
  const size_t slash = recorded.find(" / ");
  const bool has_nvcc = recorded.rfind("nvcc", 0) == 0;
  switch (def.from) {
    case From::recorded: return recorded;
    case From::host_compiler:
      if (slash != std::string::npos) return recorded.substr(slash + 3);
      return has_nvcc ? std::nullopt : std::optional<std::string>(recorded);
    case From::cuda_compiler:
      if (!has_nvcc) return std::nullopt;
      return slash == std::string::npos ? recorded : recorded.substr(0, slash);
    case From::cublaslt_file: {
      // cublasLtGetVersion() is major * 10000 + minor * 100 + patch; the library's soname carries the major.
      if (recorded.empty() || !std::all_of(recorded.begin(), recorded.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
      return "libcublasLt.so." + std::to_string(std::stoul(recorded) / 10000) + "*";
    }
    case From::nothing: return std::nullopt;
  }
  return std::nullopt;
}

bool matches(const CheckDef& def, const std::string& seen, const std::string& expected) {
  if (def.from == From::cublaslt_file)
    return ::fnmatch(expected.c_str(), fs::path(seen).filename().c_str(), 0) == 0;
  return seen == expected;
}

// The fixed rules, for checks no source names a value for.
bool meets_fixed(const CheckDef& def, const std::string& seen) {
  if (def.fixed == "a commit") return std::regex_match(seen, std::regex("[0-9a-f]{40}(-dirty)?"));
  return seen == def.fixed;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

CheckRow evaluate_one(const CheckDef& def, const std::vector<EnvironmentSource>& sources, const PreflightSpec& spec,
                      const ObservedEnvironment& observed) {
  CheckRow row;
  row.name = std::string(def.name);
  row.required = std::find(spec.required.begin(), spec.required.end(), row.name) != spec.required.end();

  std::vector<Expected> expected;
  if (!def.key.empty())
    for (const EnvironmentSource& s : sources)
      if (const auto it = s.values.find(std::string(def.key)); it != s.values.end())
        if (auto v = expectation_from(def, it->second.value)) expected.push_back({*v, it->second.where});
  if (const auto it = spec.expect.find(row.name); it != spec.expect.end())
    expected.push_back({it->second.value, it->second.where});

  std::set<std::string> distinct;
  std::vector<std::string> wheres, described;
  for (const Expected& e : expected) {
    distinct.insert(e.value);
    wheres.push_back(e.where);
    described.push_back(e.value + " (" + e.where + ")");
  }
  row.source = join(wheres, "; ");
  if (distinct.size() > 1) {
    row.expected = join(described, "; ");
  } else if (distinct.size() == 1) {
    row.expected = *distinct.begin();
  } else if (!def.fixed.empty()) {
    row.expected = std::string(def.fixed);
  } else {
    row.expected = "(no source names it)";
  }

  const auto obs = observed.find(row.name);
  const bool seen = obs != observed.end() && obs->second.value;
  if (seen) row.seen = *obs->second.value;
  if (distinct.size() > 1) {
    // Whatever this machine has, it cannot match recordings that differ among themselves.
    row.status = Status::fail;
    row.reason = "the sources disagree";
    return row;
  }
  if (!seen) {
    row.status = Status::na;
    row.reason = obs == observed.end() ? "not observed" : obs->second.note;
    return row;
  }
  if (distinct.size() == 1) {
    const bool ok = matches(def, row.seen, *distinct.begin());
    row.status = ok ? Status::pass : Status::fail;
    if (!ok) row.reason = "differs from the recording environment";
  } else if (!def.fixed.empty()) {
    const bool ok = meets_fixed(def, row.seen);
    row.status = ok ? Status::pass : Status::fail;
    if (!ok) row.reason = "not " + std::string(def.fixed);
  } else {
    row.status = Status::na;
    row.reason = "nothing to compare with: no environment source names it (the plan may, under 'expect:')";
  }
  if (!obs->second.note.empty()) row.reason += (row.reason.empty() ? "" : "; ") + obs->second.note;
  return row;
}

bool is_check_name(const std::string& name) {
  const auto& names = preflight_check_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string check_name_at(const std::string& file, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) throw InputError(where(file, n), what + " must be a check name");
  const std::string name = n.Scalar();
  if (!is_check_name(name))
    throw InputError(where(file, n), "unknown check '" + name + "'; known checks: " + join(preflight_check_names(), ", "));
  return name;
}

}  // namespace

const std::vector<std::string>& preflight_check_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const CheckDef& d : kChecks) out.emplace_back(d.name);
    return out;
  }();
  return names;
}

bool PreflightResult::passed() const { return std::all_of(checks.begin(), checks.end(), row_passes); }

PreflightResult evaluate_preflight(const PreflightSpec& spec, const ObservedEnvironment& observed) {
  std::vector<EnvironmentSource> sources;
  for (const fs::path& p : spec.environment) sources.push_back(read_source(p));
  PreflightResult r;
  for (const CheckDef& def : kChecks) r.checks.push_back(evaluate_one(def, sources, spec, observed));
  return r;
}

PreflightResult run_preflight(const PreflightSpec& spec) {
  return evaluate_preflight(spec, observe_environment(spec.source_dir));
}

nlohmann::ordered_json to_json(const PreflightResult& r) {
  nlohmann::ordered_json j;
  j["schema"] = "mmaemu-preflight/1";
  j["passed"] = r.passed();
  j["checks"] = nlohmann::ordered_json::array();
  for (const CheckRow& c : r.checks)
    j["checks"].push_back({{"name", c.name},
                           {"status", status_name(c.status)},
                           {"seen", c.seen},
                           {"expected", c.expected},
                           {"source", c.source},
                           {"required", c.required},
                           {"reason", c.reason}});
  return j;
}

std::string render_table(const PreflightResult& r) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> failed;
  for (const CheckRow& c : r.checks) {
    rows.push_back({std::string(status_name(c.status)), c.name, c.required ? "yes" : "no", c.seen, c.expected,
                    c.reason.empty() ? c.source : c.reason});
    if (!row_passes(c)) failed.push_back(c.name);
  }
  std::string out = "Preflight: this machine and build against the recording environment\n";
  out += format_table({"status", "check", "required", "seen", "expected", "source / reason"}, rows);
  out += r.passed() ? "preflight PASSED\n"
                    : "preflight FAILED: " + std::to_string(failed.size()) + " required check(s) did not pass: " +
                          join(failed, ", ") + "\n";
  return out;
}

PreflightSpec preflight_spec_from_yaml(const YAML::Node& section, const fs::path& plan_file) {
  const std::string file = plan_file.string();
  const fs::path base = plan_file.parent_path();
  static const Schema schema = {
      required_key("environment", ValueType::sequence),
      required_key("required", ValueType::sequence),
      optional_key("expect", ValueType::mapping),
      optional_key("source", ValueType::directory).described_as("source tree"),
  };
  const SchemaValues v = check_mapping(section, file, schema, "preflight section", base);
  PreflightSpec spec;
  for (const YAML::Node& item : v.at("environment").node) {
    if (!item.IsScalar() || item.Scalar().empty())
      throw InputError(where(file, item), "an environment source is a file path");
    const fs::path p = (base / item.Scalar()).lexically_normal();
    std::error_code ec;  // a path too long to look up threw std::filesystem_error (found by fuzzing)
    if (!fs::is_regular_file(p, ec)) throw InputError(where(file, item), "environment source not found at " + p.string());
    if (!is_json(p) && !is_yaml(p))
      throw InputError(where(file, item), "an environment source is a fixture manifest (.yaml) or a recording (.json)");
    spec.environment.push_back(p);
  }
  if (spec.environment.empty()) throw InputError(v.at("environment").where, "'environment' lists no source");
  for (const YAML::Node& item : v.at("required").node) {
    const std::string name = check_name_at(file, item, "an item of 'required'");
    if (std::find(spec.required.begin(), spec.required.end(), name) != spec.required.end())
      throw InputError(where(file, item), "check '" + name + "' is listed twice");
    spec.required.push_back(name);
  }
  if (v.count("expect")) {
    const YAML::Node expect = v.at("expect").node;
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      const std::string name = check_name_at(file, it->first, "a key of 'expect'");
      if (!it->second.IsScalar() || it->second.Scalar().empty())
        throw InputError(where(file, it->second), "'expect: " + name + "' must be a value");
      spec.expect[name] = {it->second.Scalar(), where(file, it->second)};
    }
  }
  if (v.count("source")) {
    require_present(v.at("source"));
    spec.source_dir = v.at("source").path;
    if (!spec.source_dir.has_filename()) spec.source_dir = spec.source_dir.parent_path();  // "a/b/" from "../"
  }
  return spec;
}

}  // namespace mmaemu::signoff
