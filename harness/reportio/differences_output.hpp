// The differences of a comparison, for a person (a screenful) and for machines (all of them, JSON).
#pragma once
#include <string>
#include <vector>

#include "harness/reportio/compare.hpp"

namespace mmaemu::reportio {

// What fits on a terminal; the rest is counted, and is all in the JSON.
inline constexpr size_t kScreenfulOfDifferences = 20;

// One line: "T2.json: suites[3].mismatched: 0 before, 12 after", "T2.json: only after",
// "T2.json: suites: 4 elements before, 5 after". Long values are cut at 80 characters.
std::string format_difference(const Difference& d);

// "0 differences\n", or "N differences\n" and a line per difference, at most `max_lines` of them,
// then "... and K more\n".
std::string format_differences(const std::vector<Difference>& diffs, size_t max_lines = kScreenfulOfDifferences);

// {"schema": "mmaemu-compare/1", "before", "after", "count", "dropped": [the normalisation rules],
//  "differences": [{"path", "kind", "before", "after"}]}
std::string differences_json(const std::vector<Difference>& diffs, const std::string& before, const std::string& after);

}  // namespace mmaemu::reportio
