// A mutation tier (T4) as one row of `mmaemu run`: the campaign runs as `mmaemu mutate` runs it
// (its kill matrix and logs go to the run's report directory), and its outcome becomes a verdict:
// every mutant counted, those with an unexpected outcome counted as mismatched and listed.
#pragma once
#include <filesystem>
#include <string>

#include "harness/tiers/runner.hpp"

namespace mmaemu::mutate {

// Loads and schema-checks the tier file now; the campaign runs when the job does. `mmaemu` and
// `build` stand for {mmaemu} and {build} in the tests' commands.
TierJob mutation_tier_job(const std::filesystem::path& file, const TierJobContext& context, const std::string& mmaemu,
                          const std::string& build);

}  // namespace mmaemu::mutate
