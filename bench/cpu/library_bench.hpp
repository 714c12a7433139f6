// Throughput of the cuBLASLt model (the library GEMM: split-K slices, their reduction, FP8 promotion,
// the epilogue) per engine, beside native cuBLASLt at the same shape and types where a GPU is present.
// Each (format, shape, split-K) call runs through kernels::library_gemm on every engine listed
// (reference, host and cpu on the CPU; cuda on the GPU with its operands resident there, in their
// storage widths, as a caller with device tensors has them: kernels::library_gemm_cuda_resident);
// every engine's D must equal the first engine's bit for bit (else its row is an error). Rates are
// multiply-adds per second of wall time around the call, after one untimed call. The CPU engines run on
// each thread count asked for, beside the CPU's own sgemm on as many threads (cpu_blas.hpp) where a
// timer is given: what a user holds a CPU emulation against.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/cpu_blas.hpp"
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
  double cpu_max_macs = 0;                      // > 0: the scalar CPU engines (reference, host) skip larger calls
  double lanes_max_macs = 0;                    // > 0: the cpu engine (vector lanes) skips larger calls
  NativeLibraryTimer native;                    // empty: no native rows
  std::vector<int> cpu_threads{0};              // thread counts of the CPU engines; 0: every hardware thread
  CpuBlasTimer cpu_blas;                        // empty: no sgemm rows
};

inline constexpr const char* kLibraryNative = "cublaslt";
inline constexpr const char* kLibraryCpuBlas = "sgemm";

struct LibraryRow {
  std::string format, shape;
  int algorithm = -1, split_k = 1;
  std::string engine;          // an engine's name, kLibraryNative or kLibraryCpuBlas
  int threads = 1;             // CPU engines and sgemm: the threads they ran on
  bool all_threads = true;     // every hardware thread (the key names other counts: ".../cpu/t1")
  std::string status;          // "measured", "declined", "skipped", "error"
  std::string reason;
  std::optional<SampleStats> gmacs;    // giga multiply-adds per second
  std::optional<double> vs_native;     // median over cuBLASLt's median (same call)
  std::optional<double> vs_cpu_blas;   // CPU engines: median over sgemm's median (same shape and threads)
  std::string algorithm_ran;           // native rows: cuBLASLt's configuration; sgemm rows: numpy's BLAS

  std::string key() const;  // "library/bf16/256x256x2048/algo66/sk2/cpu" (".../cpu/t1" on one thread)
};

// Throws InputError for a call the library model refuses (a format or algorithm it has no rules for).
std::vector<LibraryRow> run_library_bench(const LibraryBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
