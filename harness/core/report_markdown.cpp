#include "harness/core/report_markdown.hpp"

#include <cstdio>

#include "harness/core/reports.hpp"

namespace mmaemu::report_markdown {
namespace {

// A table cell holds one line and no unescaped pipe.
std::string cell(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n' || ch == '\r') out += ' ';
    else out += ch;
  }
  return out;
}

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

void provenance(std::string& md, const RunReport& run) {
  md += "| | |\n|---|---|\n";
  md += "| tool version | " + cell(run.tool_version) + " |\n";
  md += "| commit | " + cell(run.commit) + " |\n";
  md += "| started (UTC) | " + cell(run.started_utc) + " |\n";
  md += "| host | " + cell(run.host) + " |\n";
  for (const auto& [name, value] : run.environment) md += "| " + cell(name) + " | " + cell(value) + " |\n";
  md += "| tier files | " + cell(joined(run.tier_files, ", ")) + " |\n\n";
}

void suite_table(std::string& md, const RunReport& run) {
  md += "| suite | labels | verdict | compared | mismatched | known | seconds | reason |\n";
  md += "|---|---|---|--:|--:|--:|--:|---|\n";
  for (const SuiteResult& s : run.suites)
    md += "| " + cell(s.tier + "." + s.suite) + " | " + cell(joined(s.labels, ", ")) + " | " +
          verdict_name(s.verdict) + " | " + std::to_string(s.compared) + " | " + std::to_string(s.mismatched) +
          " | " + std::to_string(s.known_mismatched) + " | " + fixed(s.seconds) + " | " + cell(s.reason) + " |\n";
  md += "\n";
}

// Which profiles recorded hardware pinned in this run; the others rest on the models alone.
void profile_pins(std::string& md, const RunReport& run) {
  const auto pinned = pinned_profiles(run.suites);
  md += "Profiles pinned by recorded hardware in this run: ";
  if (pinned.empty()) md += "none";
  bool first = true;
  for (const auto& [profile, suites] : pinned) {
    md += (first ? "" : "; ") + profile + " (" + joined(suites, ", ") + ")";
    first = false;
  }
  const std::vector<std::string> unpinned = unpinned_profiles(run.suites);
  md += ". Not pinned: " + (unpinned.empty() ? std::string("none") : joined(unpinned, ", ")) + ".\n\n";
}

void suite_details(std::string& md, const SuiteResult& s) {
  md += "## " + s.tier + "." + s.suite + ": " + verdict_name(s.verdict) + "\n\n";
  if (!s.reason.empty()) md += s.reason + "\n\n";
  const std::string known = known_group_lines(s, "- ");
  if (!known.empty()) md += "Known mismatches (they do not fail the suite):\n\n" + known + "\n";
  if (!s.groups.empty()) {
    md += "| group | compared | mismatched | known |\n|---|--:|--:|---|\n";
    for (const auto& [name, count] : s.groups)
      md += "| " + cell(name) + " | " + std::to_string(count.compared) + " | " + std::to_string(count.mismatched) +
            " | " + cell(count.known_reason) + " |\n";
    md += "\n";
  }
  if (!s.first_mismatches.empty()) {
    md += "First " + std::to_string(s.first_mismatches.size()) + " mismatches (hex bits):\n\n```text\n";
    for (const Mismatch& m : s.first_mismatches) md += format_mismatch(m);
    md += "```\n\n";
  }
}

}  // namespace

std::string render(const RunReport& run) {
  const VerdictCounts n = count_verdicts(run);
  std::string md = "# mmaemu run report\n\n";
  provenance(md, run);
  if (run.state != RunState::complete)  // a reader must not take a partial run for a whole one
    md += std::string("**") + (run.state == RunState::interrupted ? "Interrupted" : "Still running") + ": " +
          std::to_string(run.suites.size()) + " of " + std::to_string(run.planned) +
          " suites finished** (`mmaemu run --resume` with the same arguments runs the rest)\n\n";
  md += "**" + std::to_string(n.pass) + " pass, " + std::to_string(n.fail) + " fail, " + std::to_string(n.skip) +
        " skip, " + std::to_string(n.error) + " error**\n\n";
  suite_table(md, run);
  profile_pins(md, run);
  for (const SuiteResult& s : run.suites) suite_details(md, s);
  return md;
}

}  // namespace mmaemu::report_markdown
