#include "harness/core/verdict_table.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <vector>

#include "harness/core/reports.hpp"

namespace mmaemu::verdict_table {
namespace {

constexpr size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;
// Numbers are right-aligned, words left-aligned.
constexpr std::array<bool, kColumns> kRightAligned = {false, false, false, true, true, true, true};

Row row_of(const SuiteResult& s) {
  std::string labels;
  for (const std::string& l : s.labels) labels += (labels.empty() ? "" : ",") + l;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", s.seconds);
  // Upper case makes what needs attention stand out in a column of "pass".
  std::string verdict = verdict_name(s.verdict);
  if (s.verdict == Verdict::fail || s.verdict == Verdict::error)
    std::transform(verdict.begin(), verdict.end(), verdict.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return {s.tier + "." + s.suite, labels, verdict, std::to_string(s.compared), std::to_string(s.mismatched),
          std::to_string(s.known_mismatched), secs};
}

std::string pad(const std::string& s, size_t width, bool right) {
  const std::string fill(width > s.size() ? width - s.size() : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string render(const RunReport& run, size_t mismatches_per_failure) {
  std::vector<Row> rows = {{"suite", "labels", "verdict", "compared", "mismatched", "known", "seconds"}};
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
    // Known mismatches are shown for every suite, passing ones included, so that they are never hidden.
    const std::string known = known_group_lines(s, "  ");
    if (s.verdict == Verdict::pass) {
      if (!known.empty()) out += "\n" + s.tier + "." + s.suite + " (pass, with known mismatches):\n" + known;
      continue;
    }
    out += "\n" + s.tier + "." + s.suite + " (" + verdict_name(s.verdict) + "): " + s.reason + "\n" + known;
    // The examples are of the mismatches that fail the suite; the reports keep those of known groups.
    size_t shown = 0;
    for (const Mismatch& m : s.first_mismatches)
      if (!m.known && shown < mismatches_per_failure) {
        out += format_mismatch(m, "  ");
        ++shown;
      }
    const size_t unknown = s.mismatched - s.known_mismatched;
    if (unknown > shown && shown > 0)
      out += "  ... " + std::to_string(unknown - shown) + " more (see the reports)\n";
  }
  const VerdictCounts n = count_verdicts(run);
  out += "\n" + std::to_string(n.pass) + " pass, " + std::to_string(n.fail) + " fail, " + std::to_string(n.skip) +
         " skip, " + std::to_string(n.error) + " error\n";
  return out;
}

}  // namespace mmaemu::verdict_table
