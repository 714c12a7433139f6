#include "harness/signoff/comparison.hpp"

#include <nlohmann/json.hpp>

#include "harness/core/atomic_file.hpp"
#include "harness/core/host_info.hpp"
#include "harness/reportio/compare.hpp"
#include "harness/reportio/differences_output.hpp"
#include "harness/signoff/status.hpp"

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

// The record's entries as they are compared: what each concluded, not when or how long it took.
// The comparison entry itself and entries the earlier sign-off could not have had are left out.
nlohmann::json entries_compared(const SignoffRecord& r) {
  nlohmann::json entries = nlohmann::json::array();
  for (const StepRecord& s : r.steps) {
    if (s.name == "comparison") continue;
    entries.push_back({{"name", s.name},
                       {"kind", s.kind},
                       {"required", s.required},
                       {"verdict", verdict_name(s.verdict)},
                       {"units", {{"pass", s.units_pass}, {"fail", s.units_fail}, {"skip", s.units_skip}, {"error", s.units_error}}},
                       {"compared", s.compared},
                       {"mismatched", s.mismatched}});
  }
  return {{"plan", r.plan}, {"plan_sha256", r.plan_sha256}, {"entries", entries}};
}

// The record and this comparison's own output are compared above, not file against file: the
// record holds the comparison entry and timings, and an earlier comparison.json compares other runs.
bool compared_as_a_file(const reportio::Difference& d) {
  for (const char* own : {"signoff.json", "comparison.json"})
    if (d.path.rfind(own, 0) == 0) return false;
  return true;
}

}  // namespace

CheckEntry comparison_entry(const fs::path& previous, const fs::path& out) {
  CheckEntry e;
  e.record.name = "comparison";
  e.record.kind = "check";
  e.record.start_utc = utc_now_iso8601();
  const SignoffRecord before = read_signoff_record(previous);
  const SignoffRecord now = read_signoff_record(out);
  std::vector<reportio::Difference> diffs;
  for (reportio::Difference& d : reportio::compare_json(entries_compared(before), entries_compared(now))) {
    d.path = "signoff.json: " + d.path;
    diffs.push_back(std::move(d));
  }
  for (reportio::Difference& d : reportio::compare_directories(previous, out))
    if (compared_as_a_file(d)) diffs.push_back(std::move(d));
  write_file_atomic((out / "comparison.json").string(),
                    reportio::differences_json(diffs, previous.string(), out.string()));
  e.record.end_utc = utc_now_iso8601();
  e.record.reports = {"comparison.json"};
  e.record.compared = 1;
  e.record.mismatched = diffs.size();
  e.record.verdict = diffs.empty() ? StepVerdict::pass : StepVerdict::fail;
  e.record.reason = diffs.empty() ? "0 differences from " + previous.string()
                                  : std::to_string(diffs.size()) + " differences from " + previous.string() +
                                        " (all in comparison.json)";
  e.table = "comparison with " + previous.string() + "\n" + reportio::format_differences(diffs);
  return e;
}

}  // namespace mmaemu::signoff
