// The GEMM throughput benchmark: every requested backend and format at every shape, each beside
// native cuBLASLt at the same shape and types, in one run on one GPU.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/floors.hpp"
#include "bench/gemm_inputs.hpp"
#include "bench/sample_stats.hpp"
#include "kernels/backend_names.hpp"

namespace mmaemu::bench {

struct GemmBenchOptions {
  std::vector<std::string> backends = kernels::gpu_backend_names();  // every GPU backend (kernels/backend_names.hpp)
  std::vector<ref::FormatId> formats{ref::FormatId::fp16, ref::FormatId::bf16, ref::FormatId::tf32,
                                     ref::FormatId::e4m3, ref::FormatId::e5m2};
  std::vector<kernels::GemmShape> shapes{{1, 4096, 4096, 4096}};
  ref::Arch arch = ref::Arch::sm90;                 // the architecture the backends emulate
  ref::InstrFamily family = ref::InstrFamily::mma_sync;
  int warmup = 3;
  int samples = 20;
  uint64_t seed = 1;
  bool native = true;                               // cuBLASLt beside each case
  size_t workspace_bytes = size_t{32} << 20;
  double bandwidth_tbs = 4.8;                       // the memory floor's bandwidth
  int device = 0;
  std::string commit;                               // recorded as given; empty: the configured commit
  std::string command;                              // the command line, recorded
  // Wall seconds one backend case may take, warm-up and samples together, per backend name (absent:
  // no limit). A case estimated over it is skipped with its estimate, never silently dropped: the
  // estimate is the wall time per MAC of the largest case of that backend and format measured so
  // far (shapes are best given small to large), or else of the case's first run.
  std::map<std::string, double> max_case_seconds;
  // The wgmma N each backend's instruction takes, per backend name (absent: N = 8, see bench_model).
  std::map<std::string, int> instruction_n;
};

inline constexpr const char* kNativeName = "cublaslt";
inline constexpr const char* kNativeFastName = "cublaslt-fast-accum";

struct BenchRow {
  kernels::GemmShape shape;
  ref::FormatId format{};
  std::string instruction;  // the emulated instruction (emulation rows) or the native types
  std::string backend;      // "simt", "tiled", "tc", kNativeName, kNativeFastName
  bool native = false;
  std::string status;       // "measured", "declined" (with reason), "skipped" (over the budget), "error"
  std::string reason;
  std::string timed_via;    // what the samples are
  std::string operands;     // emulation rows: "device" (uploaded once per case) or "host" (per run)
  std::string algorithm;    // native: cuBLASLt's algorithm
  std::vector<double> samples_ms;
  double wall_seconds = 0;  // emulation rows: wall time of the case's runs (copies and checks included)
  std::optional<SampleStats> ms, tmacs;
  std::optional<double> native_tmacs, native_fast_tmacs;  // emulation rows: the native medians
  std::optional<double> ratio, ratio_fast;                // median / native median
  std::optional<FloorNote> floor;
};

struct GemmBenchResult {
  std::vector<std::pair<std::string, std::string>> provenance;  // gpu, sm_count, driver, cuda_runtime, ...
  DeviceFacts device;
  Ceilings ceilings;
  std::vector<BenchRow> rows;
  // SIGINT or SIGTERM came (under an InterruptGuard): the cases after the one running then were not
  // run; the rows hold every case that finished.
  bool interrupted = false;
  bool any_error() const;
};

// Throws InputError for bad options and GpuError when no CUDA device can be used at all; a failure
// inside one case becomes that row's error and the run goes on.
// What the benchmark starts, for progress: a case's row (a backend or the native library), or the
// preparation of a case's operands, which starts no row.
struct BenchStep {
  std::string what;
  bool starts_row = true;
};
using BenchStepFn = std::function<void(const BenchStep&)>;

GemmBenchResult run_gemm_bench(const GemmBenchOptions& options, const BenchStepFn& progress);

std::string configured_commit();  // MMAEMU_SOURCE_COMMIT, else the commit CMake was configured at ("-dirty" if changed)

}  // namespace mmaemu::bench
