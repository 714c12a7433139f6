// Throughput of the cuBLASLt model (the library GEMM: split-K slices, their reduction, FP8 promotion,
// the epilogue) per engine, beside native cuBLASLt at the same shape and types where a GPU is present.
// Each (format, shape, split-K) call runs through kernels::library_gemm on every engine listed
// (reference, host and cpu on the CPU; cuda on the GPU with its operands resident there, in their
// storage widths, as a caller with device tensors has them: kernels::library_gemm_cuda_resident);
// every engine's D must equal the first engine's bit for bit (else its row is an error). Rates are
// multiply-adds per second of wall time around the call, after one untimed call.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/sample_stats.hpp"
#include "kernels/backend.hpp"
#include "kernels/library/library_gemm.hpp"

namespace mmaemu::bench {

// cuBLASLt's own rate for A and B in `format` with fp32 C and D: TMAC/s, or why there is none.
struct NativeLibraryRate {
  std::optional<SampleStats> tmacs;
  std::string why;        // no rate: no CUDA in this build, no device, no algorithm
  std::string algorithm;  // the configuration that ran
};
using NativeLibraryTimer = std::function<NativeLibraryRate(ref::FormatId format, const kernels::GemmShape& shape)>;

struct LibraryBenchOptions {
  std::vector<ref::FormatId> formats;           // A and B; C and D fp32
  std::vector<kernels::GemmShape> shapes;       // batch 1
  std::vector<int> split_k{1};
  int algorithm = -1;                           // CUBLASLT_ALGO_CONFIG_ID; -1: the type's default rules
  std::vector<kernels::LibraryEngine> engines;  // the first one's D is the others' check
  int repetitions = 3;
  uint64_t seed = 1;
  double cpu_max_macs = 0;                      // > 0: CPU engines skip larger calls (with the reason)
  NativeLibraryTimer native;                    // empty: no native rows
};

inline constexpr const char* kLibraryNative = "cublaslt";

struct LibraryRow {
  std::string format, shape;
  int algorithm = -1, split_k = 1;
  std::string engine;          // an engine's name, or kLibraryNative
  int threads = 1;             // CPU engines: the threads they ran on
  std::string status;          // "measured", "declined", "skipped", "error"
  std::string reason;
  std::optional<SampleStats> gmacs;    // giga multiply-adds per second
  std::optional<double> vs_native;     // median over cuBLASLt's median (same call)
  std::string algorithm_ran;           // native rows: cuBLASLt's configuration

  std::string key() const;  // "library/bf16/256x256x2048/algo66/sk2/cpu"
};

// Throws InputError for a call the library model refuses (a format or algorithm it has no rules for).
std::vector<LibraryRow> run_library_bench(const LibraryBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
