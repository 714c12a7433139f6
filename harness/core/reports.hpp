// The three reports of a run (JSON for machines, JUnit XML for CI, Markdown for people), written side
// by side as <stem>.json, <stem>.xml and <stem>.md.
#pragma once
#include <filesystem>
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu {

struct VerdictCounts {
  size_t pass = 0, fail = 0, skip = 0, error = 0;
  void add(Verdict v);
  size_t total() const { return pass + fail + skip + error; }
};
VerdictCounts count_verdicts(const RunReport& run);

// "<group>: 12 of 4096 differ", and " (known: <reason>)" for a group listed as a known mismatch.
std::string format_group_count(const std::string& group, const GroupCount& count);

// The format_group_count line of every known group, each starting with `indent`; "" when none.
std::string known_group_lines(const SuiteResult& s, const std::string& indent = "");

// One mismatch the TestFloat way, on four lines, each starting with `indent`:
//   <group> <case>            ("<group> <case> (known)" in a known group)
//     inputs   a=[...] b=[...] c=...
//     expected 3f800000
//     got      3f800001
std::string format_mismatch(const Mismatch& m, const std::string& indent = "");

// Writes each file atomically (a reader never sees half a report). Creates `dir`.
// Throws std::runtime_error naming the file when it cannot be written.
void write_reports(const RunReport& run, const std::filesystem::path& dir, const std::string& stem);

}  // namespace mmaemu
