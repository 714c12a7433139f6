// The tier runner: the whole of `mmaemu run`. Loads every tier file first (a schema error stops the
// run before anything runs), runs the selected suites, prints the verdict table, and rewrites the
// reports after every finished suite, so an interrupted run keeps what it found.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu {

struct RunOptions {
  std::vector<std::filesystem::path> tier_files;
  std::vector<std::string> only_suites;  // "NAME" or "TIER.NAME"; empty: every suite
  std::filesystem::path report_dir = "reports";
  std::string report_stem;  // empty: the tier names ("T2"), or the selected suites ("T2.km-external")
  bool ctest = false;       // every selected suite skipped -> 77, CTest's SKIP_RETURN_CODE
  bool quiet = false;       // no progress on stderr (there is none anyway when stderr is not a terminal)
};

// CTest's SKIP_RETURN_CODE for the tiers' tests.
inline constexpr int kExitAllSkipped = 77;

// Exit status: 0 every suite passed or was skipped, 1 a comparison failed, 2 unusable input (a bad
// tier file, an unknown --suite, a suite that ended in error, reports that could not be written);
// with `ctest`, 77 when every selected suite was skipped. Messages go to stderr, the verdict table
// to stdout.
int run_tiers(const RunOptions& options);

}  // namespace mmaemu
