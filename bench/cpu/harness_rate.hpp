// Cases per second of the conformance harness itself: a tier suite run as a user runs it
// (`mmaemu run TIER --suite NAME`, in a child process: loading, generating, comparing and writing the
// reports all count), its compared outputs over its wall time. A slow comparator or report writer
// shows here, where a benchmark of the arithmetic alone would miss it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/sample_stats.hpp"

namespace mmaemu::bench {

struct HarnessCase {
  std::string name;                   // the row's name, "T2.h200-fixtures"
  std::filesystem::path tier_file;
  std::string suite;
};

struct HarnessRateOptions {
  std::vector<HarnessCase> cases;
  int repetitions = 3;                // runs per case: the spread is over them
  double timeout_seconds = 600;       // per run
  std::string mmaemu;                 // the program to run (this one)
  std::filesystem::path scratch;      // reports and logs of the runs
};

struct HarnessRow {
  std::string name, tier_file, suite;
  std::string status;                 // "measured", "skipped" (the suite skipped itself), "error"
  std::string reason;
  size_t compared = 0;                // outputs and accumulators compared per run
  std::vector<double> seconds;        // wall time of each run
  std::vector<double> samples;        // compared / seconds of each run
  std::optional<SampleStats> rate;

  std::string key() const { return "harness/" + name; }
};

// Runs every case `repetitions` times. A run that fails (exit status other than 0, a suite that did
// not pass) makes its row an error with the log's path.
std::vector<HarnessRow> run_harness_rate(const HarnessRateOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
