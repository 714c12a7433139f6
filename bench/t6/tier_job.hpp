// A throughput tier (T6) as one row of `mmaemu run`: the benchmarks run as `mmaemu bench` runs them
// (their reports go to the run's report directory). It checks that every benchmark ran; speed is
// never a pass criterion here (a baseline comparison is `mmaemu bench --baseline`'s job).
#pragma once
#include <filesystem>
#include <string>

#include "harness/tiers/runner.hpp"

namespace mmaemu::t6 {

// Loads and schema-checks the tier file now; the benchmarks run when the job does. `mmaemu` is
// this program, which the harness section runs.
TierJob throughput_tier_job(const std::filesystem::path& file, const TierJobContext& context, const std::string& mmaemu);

}  // namespace mmaemu::t6
