// Whole processes, as users start them (T6's `process` section). The in-process sections time the
// arithmetic alone; a user who calls `mmaemu mma` in a loop, and T4 and T5, which start the program
// thousands of times, pay its start-up and its files as well. Rows:
//   process/start/mmaemu                     `mmaemu --version`: wall time and peak resident memory of a start
//   process/mma/<arch>/<instr>/mmaemu        `mmaemu mma --backend cpu` (one thread) over tiles in .npy files:
//                                            start, reading, computing, writing, all counted
//   process/mma/<arch>/<instr>/mmasim        MMA-Sim's script (bench/cpu/mmasim_rate.py, one pass) on the same
//                                            files, run whole: the interpreter, its imports, reading, converting,
//                                            computing, writing
// Every run is timed from fork to reaping (harness/core/child_process.hpp); the start-up row's rate is
// starts per second, the others' outputs per second. `mmaemu mma`'s D must equal the reference's bit for
// bit (else the row is an error); MMA-Sim's agreement is counted, as in the mmasim section. Where Python,
// torch or MMA-Sim is missing, the MMA-Sim rows are skipped with the reason.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/sample_stats.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::bench {

struct ProcessBenchOptions {
  std::string mmaemu;                     // the program to start (this one)
  ref::Arch arch = ref::Arch::sm90;
  std::vector<std::string> instructions;  // `mmaemu mma` rows, beside MMA-Sim
  size_t tiles = 2000;                    // instruction tiles in the files
  int repetitions = 5;                    // runs per row, after one untimed run (the files in the page cache)
  uint64_t seed = 1;
  std::string python = "python3";         // MMAEMU_PYTHON overrides it
  std::filesystem::path script;           // bench/cpu/mmasim_rate.py
  std::filesystem::path scratch;          // operands, outputs, logs
  double timeout_seconds = 600;           // per run
};

struct ProcessRow {
  std::string what;             // "start" or "mma"
  std::string arch, instruction;  // mma rows
  std::string implementation;   // "mmaemu" or "mmasim"
  std::string command;          // as run, for people
  std::string status;           // "measured", "skipped", "error"
  std::string reason;
  size_t outputs = 0;           // mma rows: outputs per run
  std::vector<double> seconds;  // wall time of each run
  std::optional<SampleStats> wall;     // of `seconds`
  std::optional<double> peak_rss_mb;   // the largest over the runs
  std::optional<SampleStats> rate;     // starts/s or outputs/s
  std::optional<double> vs_mmasim;     // mmaemu rows: rate median / MMA-Sim's (same instruction)
  std::optional<size_t> equal_to_reference;  // MMA-Sim rows

  std::string key() const;      // "process/start/mmaemu", "process/mma/sm90/mma.m16n8k16.f32.f16.f16.f32/mmaemu"
  std::string unit() const;     // "starts/s" or "outputs/s"
};

// Throws InputError for an instruction `arch` does not have.
std::vector<ProcessRow> run_process_bench(const ProcessBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
