// Markdown report, for people: provenance, a table of suites, then per suite its groups and, for a
// failure, the first mismatches as inputs / expected / got.
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::report_markdown {

std::string render(const RunReport& run);

}  // namespace mmaemu::report_markdown
