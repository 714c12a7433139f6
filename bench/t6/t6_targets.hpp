// The targets a T6 file sets (its `targets:` section): what the speed issues asked for, shown beside
// what a run measured and never asserted (speed is a benchmark's verdict, not a test's). They live in
// the tier file with the axes they are measured on; the report reads them from here.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace mmaemu::t6 {

// One rate row (RateRow::key) at or above a figure: dot-product-adds/s, or a speed-up over MMA-Sim.
struct RowTarget {
  std::string row;
  double at_least = 0;
};

// tc against cuBLASLt (its TMAC/s over cuBLASLt's) at every one of these shapes and formats.
struct NativeRatioTarget {
  std::vector<std::string> shapes, formats;
  double at_least = 0;
};

// The best CUDA-core backend's TMAC/s at a shape, for every one of `formats`.
struct CudaCoreTarget {
  std::string shape;
  double tmacs = 0;
};
struct CudaCoreTargets {
  std::vector<std::string> formats;
  std::vector<CudaCoreTarget> shapes;
};

// The library model's cuda engine against cuBLASLt at one shape.
struct LibraryGpuTarget {
  std::string shape;
  double at_least = 0;
};

// A whole-process row's wall time and peak resident memory at most these (the start-up of `mmaemu`).
struct StartupTarget {
  std::string row;
  double seconds_at_most = 0;
  double rss_mb_at_most = 0;
};

// The cpu engine's library GEMM (split-K 1) over the CPU's own sgemm, one thread each, at these shapes.
struct CpuLibraryTarget {
  std::vector<std::string> shapes;
  std::string format;
  double at_least = 0;
};

// An emulated forward pass at most this many times slower than the native one, on a device.
struct ModelSlowdownTarget {
  std::string device;
  double at_most = 0;
};

struct T6Targets {
  std::optional<RowTarget> reference;      // the oracle, one core
  std::optional<RowTarget> cpu;            // the cpu backend, one core
  std::optional<RowTarget> cpu_vs_mmasim;  // the cpu backend over MMA-Sim, one thread each
  std::optional<StartupTarget> startup;    // `mmaemu --version`, a whole process
  std::optional<RowTarget> process_vs_mmasim;
  std::optional<CpuLibraryTarget> cpu_library_vs_sgemm;
  std::optional<ModelSlowdownTarget> model_slowdown;  // `mmaemu mma` over MMA-Sim's script, whole processes
  std::optional<NativeRatioTarget> tc_vs_cublaslt;
  std::optional<CudaCoreTargets> cuda_core_tmacs;
  std::optional<LibraryGpuTarget> library_gpu_vs_cublaslt;
};

// Reads and schema-checks a `targets:` mapping; InputError at file:line:column.
T6Targets load_targets(const YAML::Node& node, const std::string& file);

}  // namespace mmaemu::t6
