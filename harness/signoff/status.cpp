#include "harness/core/input_file.hpp"
#include "harness/core/json_integer.hpp"
#include "harness/signoff/status.hpp"

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "harness/core/errors.hpp"

namespace mmaemu::signoff {
namespace {

using json = nlohmann::ordered_json;

constexpr std::array<std::pair<StepVerdict, const char*>, 7> kNames{{
    {StepVerdict::pass, "pass"},
    {StepVerdict::fail, "fail"},
    {StepVerdict::skip, "skip"},
    {StepVerdict::refused, "refused"},
    {StepVerdict::error, "error"},
    {StepVerdict::interrupted, "interrupted"},
    {StepVerdict::not_run, "not_run"},
}};

json step_json(const StepRecord& s) {
  return {{"name", s.name},
          {"kind", s.kind},
          {"position", s.position},
          {"required", s.required},
          {"command", s.command},
          {"start_utc", s.start_utc},
          {"end_utc", s.end_utc},
          {"exit_status", s.exit_status},
          {"seconds", s.seconds},
          {"verdict", verdict_name(s.verdict)},
          {"reason", s.reason},
          {"reports", s.reports},
          {"units", {{"pass", s.units_pass}, {"fail", s.units_fail}, {"skip", s.units_skip}, {"error", s.units_error}}},
          {"compared", s.compared},
          {"mismatched", s.mismatched}};
}

StepRecord step_from(const json& j, const std::string& source) {
  StepRecord s;
  s.name = j.at("name").get<std::string>();
  s.kind = j.at("kind").get<std::string>();
  s.position = json_integer<size_t>(j.at("position"));
  s.required = j.at("required").get<bool>();
  s.command = j.at("command").get<std::vector<std::string>>();
  s.start_utc = j.at("start_utc").get<std::string>();
  s.end_utc = j.at("end_utc").get<std::string>();
  s.exit_status = json_integer<int>(j.at("exit_status"));
  s.seconds = j.at("seconds").get<double>();
  s.verdict = step_verdict_from_name(j.at("verdict").get<std::string>(), source);
  s.reason = j.at("reason").get<std::string>();
  s.reports = j.at("reports").get<std::vector<std::string>>();
  const json& u = j.at("units");
  s.units_pass = json_integer<size_t>(u.at("pass"));
  s.units_fail = json_integer<size_t>(u.at("fail"));
  s.units_skip = json_integer<size_t>(u.at("skip"));
  s.units_error = json_integer<size_t>(u.at("error"));
  s.compared = json_integer<size_t>(j.at("compared"));
  s.mismatched = json_integer<size_t>(j.at("mismatched"));
  return s;
}

}  // namespace

const char* verdict_name(StepVerdict v) {
  for (const auto& [verdict, name] : kNames)
    if (verdict == v) return name;
  return "?";
}

StepVerdict step_verdict_from_name(const std::string& name, const std::string& source) {
  for (const auto& [verdict, n] : kNames)
    if (name == n) return verdict;
  throw InputError(source, "unknown step verdict '" + name + "'");
}

bool finished(StepVerdict v) {
  return v == StepVerdict::pass || v == StepVerdict::fail || v == StepVerdict::skip;
}

StepVerdict overall_verdict(const std::vector<StepRecord>& steps) {
  for (const StepRecord& s : steps)
    if (s.verdict != StepVerdict::pass && s.verdict != StepVerdict::skip) return StepVerdict::fail;
  return StepVerdict::pass;
}

std::string to_json(const SignoffRecord& r) {
  json steps = json::array();
  for (const StepRecord& s : r.steps) steps.push_back(step_json(s));
  json j = {{"schema", kSignoffSchema},
            {"plan", r.plan},
            {"plan_file", r.plan_file},
            {"plan_sha256", r.plan_sha256},
            {"tool_version", r.tool_version},
            {"commit", r.commit},
            {"started_utc", r.started_utc},
            {"finished_utc", r.finished_utc},
            {"shard", {{"index", r.shard.index}, {"count", r.shard.count}}},
            {"previous", r.previous},
            {"verdict", verdict_name(r.verdict)},
            {"complete", r.complete},
            {"steps", steps}};
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

SignoffRecord signoff_record_from_json(const std::string& text, const std::string& source) {
  try {
    const json j = json::parse(text);
    if (!j.is_object() || j.value("schema", "") != kSignoffSchema)
      throw InputError(source, std::string("not a sign-off record (schema ") + kSignoffSchema + ")");
    SignoffRecord r;
    r.plan = j.at("plan").get<std::string>();
    r.plan_file = j.at("plan_file").get<std::string>();
    r.plan_sha256 = j.at("plan_sha256").get<std::string>();
    r.tool_version = j.at("tool_version").get<std::string>();
    r.commit = j.at("commit").get<std::string>();
    r.started_utc = j.at("started_utc").get<std::string>();
    r.finished_utc = j.at("finished_utc").get<std::string>();
    r.shard.index = json_integer<unsigned>(j.at("shard").at("index"));
    r.shard.count = json_integer<unsigned>(j.at("shard").at("count"));
    r.previous = j.at("previous").get<std::string>();
    r.verdict = step_verdict_from_name(j.at("verdict").get<std::string>(), source);
    r.complete = j.at("complete").get<bool>();
    for (const json& s : j.at("steps")) r.steps.push_back(step_from(s, source));
    return r;
  } catch (const json::exception& e) {
    throw InputError(source, std::string("not a sign-off record: ") + e.what());
  }
}

SignoffRecord read_signoff_record(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) throw InputError(dir.string(), "no such sign-off directory");
  const std::filesystem::path file = dir / "signoff.json";
  return signoff_record_from_json(read_input_file(file, "the sign-off record"), file.string());
}

}  // namespace mmaemu::signoff
