// The tier runner: the whole of `mmaemu run`. Takes any tier file (tier_file_kind.hpp): every suite
// of a conformance tier is one unit of work, a mutation or throughput tier is one unit as a whole.
// Loads every file first (a schema error stops the run before anything runs), runs the selected
// units (of this shard), prints one verdict table, and rewrites the reports after every finished
// unit, so an interrupted run keeps what it found; `resume` continues such a run.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/tiers/tier_file_kind.hpp"

namespace mmaemu {

// What a tier of another kind than conformance needs to know of the run it is part of.
struct TierJobContext {
  std::filesystem::path report_dir;  // its own reports (kill matrix, benchmark report) go here too
  bool quick = false;                // run the tier's quick form
  bool quiet = false;
  unsigned jobs = 0;                          // mutation tiers: mutants at a time (0: the tier file's)
  std::filesystem::path prebuilt_variants;    // mutation tiers: {build}, with compile-time variants built there
};

// A mutation or throughput tier as one row of the verdict table. Those modules sit above the tier
// runner, so the program that has them (the CLI) hands the runner one loader per kind.
struct TierJob {
  std::string tier;                  // "T4-cpu"
  std::string name;                  // the row's name: "campaign", "benchmarks"
  std::vector<std::string> labels;   // ["T4", "cpu"]
  std::string skip_reason;           // known at load time (no device for a GPU campaign); "" to run
  std::function<SuiteResult()> run;  // throws InputError for unusable input
};
// Loads and schema-checks the file (throws InputError at file:line:column) without running it.
using TierJobLoader = std::function<TierJob(const std::filesystem::path& file, const TierJobContext& context)>;

struct RunOptions {
  std::vector<std::filesystem::path> tier_files;
  std::vector<std::string> only_suites;  // "NAME" or "TIER.NAME"; empty: every suite
  std::filesystem::path report_dir = "reports";
  std::string report_stem;  // empty: the tier names ("T2"), or the selected suites ("T2.km-external")
  bool ctest = false;       // every selected suite skipped -> 77, CTest's SKIP_RETURN_CODE
  bool quiet = false;       // no progress on stderr (there is none anyway when stderr is not a terminal)
  bool quick = false;       // long tiers in their quick form (what the main job runs)
  ShardInfo shard;          // --shard I/N: only the units of this shard (core/shard.hpp)
  unsigned jobs = 0;        // mutation tiers: mutants at a time (0: the tier file's)
  // --seed N: the seed of every suite that would draw a fresh one (its kind takes `seed:` and the
  // tier file gives none: T3p's live parity), so that a run's reported seed replays it exactly.
  std::optional<uint64_t> seed;
  // --cases N: the case budget of every suite whose kind takes `cases:` (T5's properties), replacing the
  // tier file's, so that a run can be deepened (or, with --seed, reproduced at another budget).
  std::optional<uint64_t> cases;
  std::filesystem::path prebuilt_variants;  // mutation tiers: variants built elsewhere (see TierJobContext)
  std::map<TierFileKind, TierJobLoader> job_loaders;  // mutation, throughput; absent: such files are refused
  // --resume: the suites of the report this run would write (<report_dir>/<stem>.json) are kept when
  // it was written by a run of the same inputs (RunReport::inputs_sha256), and only the others run.
  bool resume = false;
  // Reads a run report back (reportio sits above the runner, so the CLI hands it over); needed by `resume`.
  std::function<RunReport(const std::string& text, const std::string& source)> read_report;
  std::string command_line;  // as the user gave it, for the message of an interrupted run
};

// CTest's SKIP_RETURN_CODE for the tiers' tests.
inline constexpr int kExitAllSkipped = 77;

// Exit status: 0 every unit passed or was skipped, 1 a comparison failed, 2 unusable input (a bad
// tier file, an unknown --suite, a unit that ended in error, reports that could not be written, the
// reports locked by another run, a --resume of a report of other inputs); with `ctest`, 77 when every
// selected unit was skipped; interrupted by SIGINT / SIGTERM, interrupted_exit_status()
// (core/interrupt_guard.hpp) with the finished units in the reports, marked "interrupted". Messages go to stderr, the verdict table
// to stdout.
int run_tiers(const RunOptions& options);

}  // namespace mmaemu
