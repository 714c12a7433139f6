#include "harness/reportio/run_report_reader.hpp"
#include "harness/core/json_integer.hpp"

#include "harness/core/errors.hpp"
#include "harness/reportio/json_file.hpp"

namespace mmaemu::reportio {
namespace {

using nlohmann::json;

Verdict verdict_from(const std::string& name, const std::string& source) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::skip, Verdict::error})
    if (name == verdict_name(v)) return v;
  throw InputError(source, "unknown verdict '" + name + "'");
}

// A count: a non-negative integer (get<size_t> would wrap -1 and truncate 2.5 without a word).
size_t count_at(const json& j, const char* key, const std::string& source) {
  const json& v = j.at(key);
  if (!v.is_number_unsigned()) throw InputError(source, std::string("\"") + key + "\" is not a count: " + v.dump());
  return json_integer<size_t>(v);
}

size_t count_or_zero(const json& j, const char* key, const std::string& source) {
  return j.contains(key) ? count_at(j, key, source) : 0;
}

Mismatch mismatch_from(const json& j) {
  Mismatch m;
  m.group = j.at("group").get<std::string>();
  m.case_id = j.at("case").get<std::string>();
  m.inputs = j.at("inputs").get<std::string>();
  m.expected = j.at("expected").get<std::string>();
  m.got = j.at("got").get<std::string>();
  m.known = j.value("known", false);
  return m;
}

// A backend's declines: [{code, detail, problems, algorithm?}]; reports written before decline codes
// existed hold {detail: problems}, read with an empty code.
std::map<std::string, DeclineTally> declines_of(const json& j, const std::string& source) {
  std::map<std::string, DeclineTally> out;
  if (j.is_object()) {
    for (const auto& [detail, n] : j.items()) out[detail] = {"", json_integer<size_t>(n)};
    return out;
  }
  for (const json& d : j) {
    DeclineTally& t = out[d.at("detail").get<std::string>()];
    t.code = d.at("code").get<std::string>();
    t.problems = count_at(d, "problems", source);
    if (d.contains("algorithm")) t.algorithm = json_integer<int>(d.at("algorithm"));
  }
  return out;
}

SuiteResult suite_from(const json& j, const std::string& source) {
  SuiteResult s;
  s.tier = j.at("tier").get<std::string>();
  s.suite = j.at("suite").get<std::string>();
  s.labels = j.at("labels").get<std::vector<std::string>>();
  s.verdict = verdict_from(j.at("verdict").get<std::string>(), source);
  s.reason = j.at("reason").get<std::string>();
  s.compared = count_at(j, "compared", source);
  s.mismatched = count_at(j, "mismatched", source);
  s.known_mismatched = count_or_zero(j, "known_mismatched", source);
  s.seconds = j.at("seconds").get<double>();
  s.position = count_or_zero(j, "position", source);
  s.pinned_profiles = j.value("pinned_profiles", std::vector<std::string>{});
  s.failures = j.value("failures", std::vector<std::string>{});
  if (j.contains("seed")) s.seed = json_integer<uint64_t>(j.at("seed"));
  if (j.contains("coverage"))
    for (const auto& [backend, c] : j.at("coverage").items())
      s.coverage[backend] = {json_integer<size_t>(c.at("ran")), declines_of(c.at("declines"), source)};
  for (const auto& [name, g] : j.at("groups").items()) {
    GroupCount& count = s.groups[name];
    count.compared = count_at(g, "compared", source);
    count.mismatched = count_at(g, "mismatched", source);
    count.known_reason = g.value("known_reason", std::string());
  }
  for (const json& m : j.at("first_mismatches")) s.first_mismatches.push_back(mismatch_from(m));
  return s;
}

RunState state_from(const std::string& name, const std::string& source) {
  for (RunState s : {RunState::complete, RunState::running, RunState::interrupted})
    if (name == run_state_name(s)) return s;
  throw InputError(source, "unknown run state '" + name + "'");
}

ShardInfo shard_from(const json& j, const std::string& source) {
  ShardInfo shard;
  shard.index = static_cast<unsigned>(count_at(j, "index", source));
  shard.count = static_cast<unsigned>(count_at(j, "count", source));
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw InputError(source, "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                                 " is not an index 1..count");
  return shard;
}

}  // namespace

RunReport run_report_from_json(const std::string& text, const std::string& source) {
  const json j = parse_json(text, source);
  if (!j.is_object() || !j.contains("schema"))
    throw InputError(source, std::string("not a run report: no \"schema\" (expected \"") + kRunReportSchema + "\")");
  if (j["schema"] != kRunReportSchema)
    throw InputError(source, "not a run report: schema " + j["schema"].dump() + ", expected \"" + kRunReportSchema + "\"");
  try {
    RunReport run;
    run.tool_version = j.at("tool_version").get<std::string>();
    run.commit = j.at("commit").get<std::string>();
    run.started_utc = j.at("started_utc").get<std::string>();
    run.host = j.at("host").get<std::string>();
    run.environment = j.at("environment").get<std::map<std::string, std::string>>();
    run.tier_files = j.at("tier_files").get<std::vector<std::string>>();
    if (j.contains("shard")) run.shard = shard_from(j["shard"], source);
    // Reports written before these fields are whole runs.
    if (j.contains("state")) run.state = state_from(j["state"].get<std::string>(), source);
    run.planned = count_or_zero(j, "planned", source);
    run.inputs_sha256 = j.value("inputs_sha256", std::string());
    for (const json& s : j.at("suites")) run.suites.push_back(suite_from(s, source));
    return run;
  } catch (const json::exception& e) {
    throw InputError(source, std::string("not a run report: ") + e.what());
  }
}

}  // namespace mmaemu::reportio
