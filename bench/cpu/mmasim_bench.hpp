// Instruction tiles per second on the CPU, side by side with MMA-Sim (Xie et al., PyPI `mmasim`, a
// Python model on PyTorch): the same tiles of realistic operands through MMA-Sim (a child process
// running bench/cpu/mmasim_rate.py, one torch thread, operands converted before the clock starts) and
// through mmaemu's CPU backends (Backend::run on all tiles as one batch: reference, host and cpu on one
// thread, cpu on every hardware thread). Rates are instruction outputs per second; every backend's D must
// equal the reference's bit for bit (else the row is an error), and MMA-Sim's agreement is counted.
// Where Python, torch or MMA-Sim is missing, the MMA-Sim row is skipped with the reason; the others run.
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

struct MmasimBenchOptions {
  ref::Arch arch = ref::Arch::sm90;
  std::vector<std::string> instructions;  // names of `arch`'s instructions
  size_t tiles = 2000;                    // instruction tiles per timed pass
  int repetitions = 3;                    // timed passes per row (after one untimed pass)
  uint64_t seed = 1;
  std::string python = "python3";         // MMAEMU_PYTHON overrides it
  std::filesystem::path script;           // bench/cpu/mmasim_rate.py
  std::filesystem::path scratch;          // operands, MMA-Sim's outputs and logs
  double timeout_seconds = 600;           // per MMA-Sim child
};

inline constexpr const char* kMmasim = "mmasim";

struct MmasimRow {
  std::string arch, instruction;
  std::string implementation;  // "mmasim", "reference", "host", "cpu"
  int threads = 1;
  bool all_threads = false;
  std::string status;          // "measured", "skipped", "error"
  std::string reason;
  size_t outputs = 0;          // per pass
  std::vector<double> samples; // outputs per second, one per pass
  std::optional<SampleStats> rate;
  std::optional<double> vs_mmasim;      // rate median / MMA-Sim's (same instruction)
  std::optional<size_t> equal_to_reference;  // MMA-Sim row: its outputs equal to the reference's bits
  std::string versions;        // MMA-Sim row: "mmasim 2.1.1, torch ..., python ..."

  std::string key() const;     // "mmasim/sm90/mma.m16n8k16.f32.f16.f16.f32/cpu/t1" ("t-all")
};

// Throws InputError for an instruction `arch` does not have.
std::vector<MmasimRow> run_mmasim_bench(const MmasimBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
