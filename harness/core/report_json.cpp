#include "harness/core/report_json.hpp"

#include <nlohmann/json.hpp>

#include "harness/core/reports.hpp"

namespace mmaemu::report_json {
namespace {

nlohmann::ordered_json suite_json(const SuiteResult& s) {
  nlohmann::ordered_json j;
  j["tier"] = s.tier;
  j["suite"] = s.suite;
  j["labels"] = s.labels;
  j["verdict"] = verdict_name(s.verdict);
  j["reason"] = s.reason;
  j["compared"] = s.compared;
  j["mismatched"] = s.mismatched;
  j["known_mismatched"] = s.known_mismatched;
  j["seconds"] = s.seconds;
  j["position"] = s.position;
  j["pinned_profiles"] = s.pinned_profiles;
  j["failures"] = s.failures;
  if (s.seed) j["seed"] = *s.seed;
  nlohmann::ordered_json coverage = nlohmann::ordered_json::object();
  for (const auto& [backend, c] : s.coverage) {
    nlohmann::ordered_json declines = nlohmann::ordered_json::array();
    for (const auto& [detail, t] : c.declines) {
      nlohmann::ordered_json d = {{"code", t.code}, {"detail", detail}, {"problems", t.problems}};
      if (t.algorithm) d["algorithm"] = *t.algorithm;
      declines.push_back(std::move(d));
    }
    coverage[backend] = {{"ran", c.ran}, {"declines", std::move(declines)}};
  }
  j["coverage"] = std::move(coverage);
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const auto& [name, count] : s.groups)
    groups[name] = {
        {"compared", count.compared}, {"mismatched", count.mismatched}, {"known_reason", count.known_reason}};
  j["groups"] = std::move(groups);
  nlohmann::ordered_json mismatches = nlohmann::ordered_json::array();
  for (const Mismatch& m : s.first_mismatches)
    mismatches.push_back(
        {{"group", m.group}, {"case", m.case_id}, {"inputs", m.inputs}, {"expected", m.expected}, {"got", m.got},
         {"known", m.known}});
  j["first_mismatches"] = std::move(mismatches);
  return j;
}

}  // namespace

std::string render(const RunReport& run) {
  nlohmann::ordered_json j;
  j["schema"] = "mmaemu-report/1";
  j["tool_version"] = run.tool_version;
  j["commit"] = run.commit;
  j["started_utc"] = run.started_utc;
  j["host"] = run.host;
  j["environment"] = run.environment;
  j["tier_files"] = run.tier_files;
  if (run.shard.sharded()) j["shard"] = {{"index", run.shard.index}, {"count", run.shard.count}};
  j["state"] = run_state_name(run.state);
  j["planned"] = run.planned;
  j["inputs_sha256"] = run.inputs_sha256;
  const VerdictCounts n = count_verdicts(run);
  j["summary"] = {{"pass", n.pass}, {"fail", n.fail}, {"skip", n.skip}, {"error", n.error}};
  nlohmann::ordered_json suites = nlohmann::ordered_json::array();
  for (const SuiteResult& s : run.suites) suites.push_back(suite_json(s));
  j["suites"] = std::move(suites);
  j["pinned_profiles"] = pinned_profiles(run.suites);
  j["unpinned_profiles"] = unpinned_profiles(run.suites);
  // Replace invalid UTF-8 (a reason may quote bytes of a corrupt file) instead of throwing.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace mmaemu::report_json
