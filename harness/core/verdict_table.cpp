#include "verdict_table.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <vector>

#include "reports.hpp"

namespace mmaemu::verdict_table {
namespace {

constexpr size_t kColumns = 6;
using Row = std::array<std::string, kColumns>;
// Numbers are right-aligned, words left-aligned.
constexpr std::array<bool, kColumns> kRightAligned = {false, false, false, true, true, true};

Row row_of(const SuiteResult& s) {
  std::string labels;
  for (const std::string& l : s.labels) labels += (labels.empty() ? "" : ",") + l;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", s.seconds);
  // Upper case makes what needs attention stand out in a column of "pass".
  std::string verdict = verdict_name(s.verdict);
  if (s.verdict == Verdict::fail || s.verdict == Verdict::error)
    std::transform(verdict.begin(), verdict.end(), verdict.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return {s.tier + "." + s.suite, labels, verdict, std::to_string(s.compared), std::to_string(s.mismatched), secs};
}

std::string pad(const std::string& s, size_t width, bool right) {
  const std::string fill(width > s.size() ? width - s.size() : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string render(const RunReport& run, size_t mismatches_per_failure) {
  std::vector<Row> rows = {{"suite", "labels", "verdict", "compared", "mismatched", "seconds"}};
  for (const SuiteResult& s : run.suites) rows.push_back(row_of(s));
  std::array<size_t, kColumns> width{};
  for (const Row& r : rows)
    for (size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], r[c].size());

  std::string out;
  for (const Row& r : rows) {
    std::string line;
    for (size_t c = 0; c < kColumns; ++c) line += (c ? "  " : "") + pad(r[c], width[c], kRightAligned[c]);
    out += line + "\n";
  }
  for (const SuiteResult& s : run.suites) {
    if (s.verdict == Verdict::pass) continue;
    out += "\n" + s.tier + "." + s.suite + " (" + verdict_name(s.verdict) + "): " + s.reason + "\n";
    const size_t shown = std::min(mismatches_per_failure, s.first_mismatches.size());
    for (size_t i = 0; i < shown; ++i) out += format_mismatch(s.first_mismatches[i], "  ");
    if (s.mismatched > shown && shown > 0)
      out += "  ... " + std::to_string(s.mismatched - shown) + " more (see the reports)\n";
  }
  const VerdictCounts n = count_verdicts(run);
  out += "\n" + std::to_string(n.pass) + " pass, " + std::to_string(n.fail) + " fail, " + std::to_string(n.skip) +
         " skip, " + std::to_string(n.error) + " error\n";
  return out;
}

}  // namespace mmaemu::verdict_table
