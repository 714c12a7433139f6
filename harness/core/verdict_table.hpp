// The short plain-text table a run prints on the terminal: one row per suite, then the reason of
// every suite that did not pass and, for failures, its first few mismatches.
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::verdict_table {

std::string render(const RunReport& run, size_t mismatches_per_failure = 3);

}  // namespace mmaemu::verdict_table
