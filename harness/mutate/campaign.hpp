// The whole of `mmaemu mutate`: loads the T4 tier file and the catalogue, runs the baseline (no
// mutant active; every test must pass, and its times set the timeouts), then every selected mutant
// with its tests in child processes, `jobs` mutants at a time; appends each result to the journal
// and rewrites the reports after every mutant; compares with a committed kill matrix; prints the
// verdict table.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/mutate/campaign_spec.hpp"
#include "harness/mutate/catalogue.hpp"
#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::mutate {

struct MutateOptions {
  std::filesystem::path tier_file;
  bool resume = false;                  // reuse the journal's results for unchanged entries and tests
  unsigned jobs = 0;                    // 0: the tier file's
  std::vector<std::string> only;        // mutant ids or names; empty: every mutant of the selected tiers
  std::filesystem::path baseline;       // a committed kill matrix (JSON); empty: none
  std::filesystem::path report_dir = "reports";
  bool fast = false;                    // stop a mutant's tests at its first kill
  bool quiet = false;                   // no progress on stderr
  std::string mmaemu;                   // {mmaemu}: the path of the running program
  std::string build;                    // {build}: the build directory
  bool build_variants = true;           // false (--no-build): compile-time variants must exist already
  bool ctest = false;                   // a campaign skipped for want of a device exits 77 (not 2)
  bool quick = false;                   // the tier's quick form (its `quick:` mutants, stopped at first kill)
  ShardInfo shard;                      // --shard I/N: only this shard's mutants (core/shard.hpp)
  // Why no CUDA device can be used here, or nullopt; empty: ask the CUDA runtime.
  std::function<std::optional<std::string>()> gpu_unavailable;
};

inline constexpr int kExitSkipped = 77;  // CTest's skip (SKIP_RETURN_CODE)

// What a campaign ended with, for a caller that shows it as one row of a larger run.
struct CampaignOutcome {
  int status = 0;                      // as run_mutation_campaign returns it
  std::string reason;                  // why it stopped early (bad input, a failing baseline, no device), or ""
  bool skipped = false;                // `device: gpu` without a CUDA device
  bool finished = false;               // every selected mutant judged and compared
  std::optional<KillMatrix> matrix;    // once the baseline passed (partial when interrupted)
  double seconds = 0;
  unsigned jobs = 1;
  std::filesystem::path report;        // <report dir>/<tier>.json, the kill matrix
};

// The campaign without printing its verdict table. Throws InputError for unusable input.
// The quick form stands for the whole campaign: it must hold a mutant of every part of the code its
// tiers' mutants fall in (the catalogue's `part`), so a part added to the catalogue fails every run
// until the quick form picks one of it. InputError at the quick form, naming the parts it lacks.
void check_quick_covers_every_part(const std::vector<Mutant>& catalogue, const CampaignSpec& campaign);

CampaignOutcome run_campaign(const MutateOptions& options);

// Exit status: 0 every mutant had its expected outcome (and none regressed against the baseline);
// 1 a mutant expected killed survived, an identity control or an "equivalent" mutant was killed, a
// test could not be started, or a mutant killed in the baseline survives now; 2 unusable input (a
// bad tier file or catalogue, a baseline that fails, an unreadable --baseline, reports that cannot be
// written or are locked by another campaign, a variant that does not build or is missing under
// --no-build, a `device: gpu` tier without a CUDA device; that last one is 77 under --ctest, checked
// before anything is built or run); interrupted by SIGINT / SIGTERM, interrupted_exit_status()
// (core/interrupt_guard.hpp), with the judged mutants in the reports and the journal.
// run_campaign, then the verdict table on stdout when it finished.
int run_mutation_campaign(const MutateOptions& options);

inline constexpr const char* kBaselineFails = "baseline fails: the tests must pass before mutants can be judged";

}  // namespace mmaemu::mutate
