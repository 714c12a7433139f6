// The comparison with an earlier sign-off: every verdict, every compared and mismatched count, every
// kill matrix, every check's rows (preflight values included), after dropping what may differ
// between two runs (reportio/normalise.hpp: timings, dates, commits, hosts, paths). "0 differences"
// is how a release is shown to change nothing it should not.
#pragma once
#include <filesystem>

#include "harness/signoff/checks.hpp"

namespace mmaemu::signoff {

// Compares the sign-off being written in `out` (its entries so far) with the one in `previous`;
// writes comparison.json into `out`. The entry passes with 0 differences.
CheckEntry comparison_entry(const std::filesystem::path& previous, const std::filesystem::path& out);

}  // namespace mmaemu::signoff
