#include "harness/signoff/signoff_report.hpp"

#include <cstdio>

#include "harness/core/atomic_file.hpp"
#include "harness/core/report_junit.hpp"
#include "harness/signoff/check_table.hpp"

namespace mmaemu::signoff {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

std::vector<std::vector<std::string>> rows_of(const SignoffRecord& record) {
  std::vector<std::vector<std::string>> rows;
  for (const StepRecord& s : record.steps) {
    const bool tier = s.kind == "tier";
    std::string verdict = verdict_name(s.verdict);
    if (s.verdict != StepVerdict::pass && s.verdict != StepVerdict::skip)
      for (char& c : verdict) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    rows.push_back({s.name, s.kind, s.required ? "yes" : "no", verdict,
                    tier ? std::to_string(s.units_pass) + "/" + std::to_string(s.units_fail) + "/" + std::to_string(s.units_skip)
                         : "",
                    tier ? std::to_string(s.compared) : "", tier ? std::to_string(s.mismatched) : "",
                    seconds_text(s.seconds)});
  }
  return rows;
}

// The record as a run report, so that the JUnit writer every run uses renders it too.
RunReport as_run_report(const SignoffRecord& record) {
  RunReport run;
  run.tool_version = record.tool_version;
  run.commit = record.commit;
  run.started_utc = record.started_utc;
  run.tier_files = {record.plan_file};
  for (const StepRecord& s : record.steps) {
    SuiteResult r;
    r.tier = "signoff-" + record.plan;
    r.suite = s.name;
    r.labels = {s.kind};
    r.compared = s.compared;
    r.mismatched = s.mismatched;
    r.seconds = s.seconds;
    r.reason = s.reason;
    switch (s.verdict) {
      case StepVerdict::pass: r.verdict = Verdict::pass; break;
      case StepVerdict::skip: r.verdict = Verdict::skip; break;
      case StepVerdict::fail:
      case StepVerdict::refused:
      case StepVerdict::not_run: r.verdict = Verdict::fail; break;
      case StepVerdict::error:
      case StepVerdict::interrupted: r.verdict = Verdict::error; break;
    }
    if (s.verdict == StepVerdict::refused || s.verdict == StepVerdict::not_run)
      r.reason = std::string(verdict_name(s.verdict)) + ": " + s.reason;
    run.suites.push_back(std::move(r));
  }
  return run;
}

}  // namespace

std::string verdict_table(const SignoffRecord& record) {
  std::string out = format_table({"entry", "kind", "required", "verdict", "suites p/f/s", "compared", "mismatched", "seconds"},
                                 rows_of(record), 40);
  for (const StepRecord& s : record.steps)
    if (s.verdict != StepVerdict::pass || !s.reason.empty())
      out += "\n" + s.name + " (" + verdict_name(s.verdict) + "): " + s.reason;
  out += "\n\nsign-off " + record.plan + (record.shard.sharded() ? " shard " + std::to_string(record.shard.index) + "/" +
                                                                      std::to_string(record.shard.count) : "") +
         ": " + (record.complete ? (record.verdict == StepVerdict::pass ? "RELEASE MAY PROCEED" : "RELEASE REFUSED")
                                 : "INCOMPLETE") +
         "\n";
  return out;
}

void write_signoff_reports(const SignoffRecord& record, const std::filesystem::path& dir,
                           const std::vector<std::string>& check_tables) {
  std::filesystem::create_directories(dir);
  write_file_atomic((dir / "signoff.json").string(), to_json(record));
  std::string md = "# Sign-off " + record.plan + "\n\n";
  md += "- plan: `" + record.plan_file + "` (sha256 " + record.plan_sha256 + ")\n";
  md += "- commit: " + record.commit + ", mmaemu " + record.tool_version + "\n";
  md += "- started " + record.started_utc + ", finished " + record.finished_utc + "\n";
  if (!record.previous.empty()) md += "- compared with: `" + record.previous + "`\n";
  md += "\n```\n" + verdict_table(record) + "```\n";
  for (const std::string& t : check_tables) md += "\n```\n" + t + "```\n";
  write_file_atomic((dir / "signoff.md").string(), md);
  write_file_atomic((dir / "signoff.xml").string(), report_junit::render(as_run_report(record)));
}

}  // namespace mmaemu::signoff
