// Dot-product-adds per second on the CPU (Google Benchmark): per profile and format, the oracle
// (`reference`, ref::dot_k on one block) and the kernels' arithmetic (`host`, arith::block_chain on
// one block), each beside a plain float loop of the same length (`float`) in the same run, so that
// the ratio says what exactness costs; one thread and every hardware thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mmaemu/reference/model.hpp"
#include "bench/sample_stats.hpp"

namespace mmaemu::bench {

struct DotBenchOptions {
  std::vector<ref::Arch> archs;
  std::vector<ref::FormatId> formats;
  std::vector<int> threads{1, 0};  // 0: every hardware thread
  size_t batch = 4096;             // blocks per timed iteration
  double min_seconds = 0.05;       // per repetition
  int repetitions = 5;             // samples: the spread is over them
  uint64_t seed = 1;
};

inline constexpr const char* kDotReference = "reference";
inline constexpr const char* kDotHost = "host";
inline constexpr const char* kDotCpu = "cpu";  // the cpu backend on a GEMM of the batch's values (dot_cases.hpp)
inline constexpr const char* kDotFloat = "float";

struct DotRow {
  std::string arch, format, instruction;  // empty in float rows (one per block length L)
  int L = 0;
  std::string implementation;  // kDotReference, kDotHost, kDotCpu, kDotFloat
  int threads = 1;
  bool all_threads = false;    // `threads` is every hardware thread of this machine
  std::string status;          // "measured" or "error"
  std::string reason;
  std::vector<double> samples;  // dot-product-adds per second, one per repetition (all threads together)
  std::optional<SampleStats> rate;
  std::optional<double> float_rate;  // reference and host rows: the float loop's median (same L, threads)
  std::optional<double> float_ratio; // rate median / float_rate: the share of float speed exactness keeps

  std::string key() const;  // "dot/sm90/fp16/reference/t1" ("t-all" for every thread; float: "dot/float/L16/t1")
};

struct DotBenchResult {
  std::vector<DotRow> rows;
  int hardware_threads = 1;
  std::string gbench_json;  // Google Benchmark's own JSON report of the same runs
  bool any_error() const;
};

// Progress: benchmarks done, of how many, and the name of the last.
using BenchProgress = std::function<void(size_t done, size_t total, const std::string& what)>;

// Throws InputError when no (profile, format) in the options has a tensor-core block.
DotBenchResult run_dot_bench(const DotBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
