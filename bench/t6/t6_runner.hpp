// `mmaemu bench TIER.yaml`: runs a T6 tier file's sections (reference, harness, gemm), compares with a
// baseline when given one, writes <stem>.json, <stem>.md, <stem>.svg (and <stem>.gbench.json, Google
// Benchmark's own report of the reference section) atomically after every section, and prints the
// verdict table.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu::t6 {

struct BenchRunOptions {
  std::filesystem::path tier_file;
  std::vector<std::string> sections;  // "reference", "harness", "gemm"; empty: every one in the file
  std::filesystem::path report_dir = "reports";
  std::string report_stem;            // empty: the tier's name
  std::filesystem::path baseline;     // an earlier T6 JSON report; empty: none
  bool quiet = false;
  std::string mmaemu;                 // this program, for the harness section's runs
  std::string command;                // the command line, recorded
  bool quick = false;                 // the tier's quick form
};

// What a run ended with, for a caller that shows it as one row of a larger run.
struct BenchOutcome {
  int status = 0;              // as run_bench_tier returns it
  size_t measured = 0;         // rows with a rate
  size_t errors = 0;           // rows in error
  size_t regressions = 0;      // against the baseline
  std::string table;           // the verdict table run_bench_tier prints
  std::filesystem::path report;  // <report dir>/<stem>.json
  // Stopped by SIGINT / SIGTERM: the finished sections are in the reports (marked "interrupted").
  bool interrupted = false;
  // Interrupted while an in-process section (reference, gemm) was still running: it cannot be
  // stopped in between, so the process has to end (exit_now) once its caller has written what it has.
  bool left_running = false;
};

// The run without printing. Throws InputError for unusable input.
BenchOutcome run_bench(const BenchRunOptions& options);

// CTest's SKIP_RETURN_CODE: nothing could run (every selected section skipped, no error).
inline constexpr int kExitNothingRan = 77;

// Exit status: 0 fine; 1 a regression flagged or a case failed; 2 unusable input (throws InputError
// for the CLI to report; the reports locked by another run, or that cannot be written); 77 nothing
// could run; interrupted by SIGINT / SIGTERM, interrupted_exit_status() (core/interrupt_guard.hpp),
// the sections that finished in the reports. A throughput run is not resumed: rates measured in two
// sittings, under different loads, would be compared as one run; it is run again.
int run_bench_tier(const BenchRunOptions& options);

}  // namespace mmaemu::t6
