// The compile-time variants of a campaign (its `variants:` section, campaign_spec.hpp): mutants of
// GPU device code exist only in a program built for them, so before any mutant runs, each one's
// variant is built (one child process per variant, its output kept as a log) and must then exist.
// With --no-build the variants were built elsewhere (a machine with a compiler) and carried here.
#pragma once
#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/mutate/campaign_spec.hpp"
#include "harness/mutate/catalogue.hpp"

namespace mmaemu::mutate {

struct VariantSetup {
  std::string build_dir;               // {build}
  std::filesystem::path log_dir;       // <log_dir>/<id>.log per build
  bool build = true;                   // false: --no-build, the programs must already exist
  bool progress = false;               // "[T4-gpu] 3/19 variants built, ..." on stderr
};

// Builds (unless told not to) and finds the variant program of every mutant. Returns id -> program
// path (resolved against the campaign's working directory). Throws InputError at the `variants`
// entry for a build that fails (naming its log), is interrupted through `stop`, or leaves no program,
// and for a program that is missing under --no-build (naming the file).
std::map<int, std::string> prepare_variants(const CampaignSpec& campaign, const std::vector<Mutant>& mutants,
                                            const VariantSetup& setup, const std::atomic<bool>& stop);

}  // namespace mmaemu::mutate
