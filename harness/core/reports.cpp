#include "harness/core/reports.hpp"

#include "harness/core/atomic_file.hpp"
#include "harness/core/report_json.hpp"
#include "harness/core/report_junit.hpp"
#include "harness/core/report_markdown.hpp"

namespace mmaemu {

void VerdictCounts::add(Verdict v) {
  switch (v) {
    case Verdict::pass: ++pass; break;
    case Verdict::fail: ++fail; break;
    case Verdict::skip: ++skip; break;
    case Verdict::error: ++error; break;
  }
}

VerdictCounts count_verdicts(const RunReport& run) {
  VerdictCounts n;
  for (const SuiteResult& s : run.suites) n.add(s.verdict);
  return n;
}

std::string format_group_count(const std::string& group, const GroupCount& count) {
  std::string line = group + ": " + std::to_string(count.mismatched) + " of " + std::to_string(count.compared) + " differ";
  if (count.known()) line += " (known: " + count.known_reason + ")";
  return line;
}

std::string known_group_lines(const SuiteResult& s, const std::string& indent) {
  std::string out;
  for (const auto& [name, count] : s.groups)
    if (count.known()) out += indent + format_group_count(name, count) + "\n";
  return out;
}

std::string format_mismatch(const Mismatch& m, const std::string& indent) {
  return indent + m.group + " " + m.case_id + (m.known ? " (known)" : "") + "\n" + indent + "  inputs   " + m.inputs + "\n" + indent +
         "  expected " + m.expected + "\n" + indent + "  got      " + m.got + "\n";
}

void write_reports(const RunReport& run, const std::filesystem::path& dir, const std::string& stem) {
  write_file_atomic(dir / (stem + ".json"), report_json::render(run));
  write_file_atomic(dir / (stem + ".xml"), report_junit::render(run));
  write_file_atomic(dir / (stem + ".md"), report_markdown::render(run));
}

}  // namespace mmaemu
