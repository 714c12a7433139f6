#include "harness/reportio/normalise.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace mmaemu::reportio {
namespace {

using M = DropRule::Match;

bool key_matches(const DropRule& r, const std::string& key) {
  const std::string_view k = key, p = r.key;
  switch (r.match) {
    case M::exact: return k == p;
    case M::prefix: return k.substr(0, p.size()) == p;
    case M::suffix: return k.size() >= p.size() && k.substr(k.size() - p.size()) == p;
  }
  return false;
}

nlohmann::json normalised(const nlohmann::json& j, const std::string& parent) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : j) out.push_back(normalised(e, parent));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : j.items())
    if (!is_dropped(parent, key, value)) out[key] = normalised(value, key);
  return out;
}

}  // namespace

const std::vector<DropRule>& drop_rules() {
  static const std::vector<DropRule> rules = {
      {"", M::exact, "seconds", false, "how long a suite, a mutant or a test ran: differs from run to run"},
      {"", M::suffix, "_seconds", false,
       "durations and the limits computed from them (baseline_seconds; timeout_seconds = factor x baseline + "
       "slack; wall_seconds)"},
      {"", M::exact, "started", false, "when a mutation campaign began"},
      {"", M::suffix, "_utc", false, "when a run began or a measurement was taken (started_utc, date_utc)"},
      {"", M::exact, "date", false, "when a benchmark ran (Google Benchmark's context)"},
      {"", M::exact, "commit", false, "the build's commit: a release changes it by design"},
      {"", M::exact, "inputs_sha256", false, "a run's inputs for --resume: it covers the commit and the tier files' paths"},
      {"", M::exact, "host", false, "the machine's name"},
      {"", M::exact, "host_name", false, "the machine's name (Google Benchmark's context)"},
      {"", M::exact, "log", false, "a test log's path in a kill matrix; the logs themselves are not compared"},
      {"", M::exact, "report_dir", false, "where the run wrote its reports"},
      {"", M::exact, "executable", false, "the benchmark program's path (Google Benchmark's context)"},
      {"provenance", M::exact, "command", false,
       "a benchmark's command line: it names the program's and the output file's paths"},
      {"baseline", M::exact, "file", false, "the baseline kill matrix's path, as given on the command line"},
      {"steps", M::exact, "command", false, "a sign-off step's command line: it names the sign-off directory"},
      {"rows", M::exact, "command", false, "a whole-process benchmark's command line: it names its files' paths"},
      {"", M::exact, "previous", false, "the earlier sign-off a sign-off was compared with (a path)"},
      {"environment", M::prefix, "", true, "an environment entry that is a path (a tool's location) differs per machine"},
  };
  return rules;
}

bool looks_like_path(const std::string& s) {
  if (s.empty()) return false;
  if (s[0] == '/' || s[0] == '~' || s.rfind("./", 0) == 0 || s.rfind("../", 0) == 0) return true;
  const bool has_space = std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
  return !has_space && s.find('/') != std::string::npos;
}

bool is_dropped(const std::string& parent, const std::string& key, const nlohmann::json& value) {
  for (const DropRule& r : drop_rules()) {
    if (*r.parent && parent != r.parent) continue;
    if (!key_matches(r, key)) continue;
    if (r.only_paths && !(value.is_string() && looks_like_path(value.get<std::string>()))) continue;
    return true;
  }
  return false;
}

// A throughput report (T6) is a measurement: its rates and times differ on every run. What it
// concluded (which benchmarks ran, their status) is compared; what it measured is not.
constexpr const char* kThroughputSchema = "mmaemu-bench-t6/1";
const std::set<std::string>& measurement_keys() {
  static const std::set<std::string> keys = {
      "rate", "float_rate", "share_of_float", "samples_per_second", "ms", "samples_ms", "median", "min", "max",
      "p10", "p90", "tmacs", "native_tmacs", "native_fast_accum_tmacs", "ratio", "ratio_fast_accum", "before",
      "now", "sm_clock_ghz", "compared_per_run", "regressions", "regression",
      // the process, model and library sections' measurements (their status and rows are compared)
      "wall", "peak_rss_mb", "vs_mmasim", "vs_native", "vs_cpu_blas", "gmacs", "tokens_per_second", "slowdown",
      "matmul_seconds_per_forward"};
  return keys;
}

nlohmann::json without_measurements(const nlohmann::json& j) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : j) out.push_back(without_measurements(e));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : j.items())
    if (!measurement_keys().count(key)) out[key] = without_measurements(value);
  return out;
}

// A preflight row of the commit holds the commit as its value: a release changes it by design, like
// every other "commit" (the row's verdict, that it is a commit, is still compared).
constexpr const char* kPreflightSchema = "mmaemu-preflight/1";
nlohmann::json without_commit_value(nlohmann::json doc) {
  if (!doc.contains("checks") || !doc["checks"].is_array()) return doc;
  for (auto& row : doc["checks"])
    if (row.is_object() && row.value("name", "") == "commit") {
      row.erase("seen");
      row.erase("reason");
    }
  return doc;
}

nlohmann::json normalise(const nlohmann::json& doc) {
  const std::string schema = doc.is_object() ? doc.value("schema", "") : "";
  if (schema == kThroughputSchema) return normalised(without_measurements(doc), "");
  if (schema == kPreflightSchema) return normalised(without_commit_value(doc), "");
  return normalised(doc, "");
}

nlohmann::json drop_rules_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const DropRule& r : drop_rules()) {
    const std::string key = r.match == M::exact    ? std::string(r.key)
                            : r.match == M::prefix ? std::string(r.key) + "*"
                                                   : "*" + std::string(r.key);
    nlohmann::json j = {{"key", key}, {"where", *r.parent ? std::string("in ") + r.parent : "anywhere"}, {"why", r.why}};
    if (r.only_paths) j["only_paths"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace mmaemu::reportio
