// The GPU part of T6: GEMM throughput of each backend beside native cuBLASLt, run through the GEMM
// benchmark library (bench/gemm_bench.hpp) when this build has CUDA. The interface holds no CUDA
// type, so that `mmaemu bench` builds and runs its CPU parts without CUDA.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/cpu/library_bench.hpp"
#include "bench/sample_stats.hpp"
#include "bench/t6/t6_spec.hpp"

namespace mmaemu::t6 {

// One row of the GEMM benchmark, as the table, the plot and the baseline read it.
struct GemmPoint {
  std::string format, backend, shape;
  double macs = 0;
  bool square = false;   // M = N = K: the plot's lines; other shapes are its markers
  bool native = false;   // cuBLASLt
  std::string status, reason;
  std::optional<bench::SampleStats> tmacs;
  std::optional<double> ratio;  // median over cuBLASLt's median (emulation rows)
};

struct GemmSectionResult {
  std::string skipped;            // why nothing ran (no CUDA in this build, no CUDA device); empty: it ran
  nlohmann::json report;          // the benchmark's own JSON (mmaemu-bench-gemm/1)
  std::string markdown;           // its own table
  std::vector<GemmPoint> points;
  bool any_error = false;
  // A signal stopped the section between two cases: the points are the cases that finished, whole.
  bool interrupted = false;
};

// cuBLASLt's own rate beside the library section's engines (bench/cpu/library_bench.hpp): TMAC/s at the
// shape with A and B in the format and fp32 C and D, or why there is none (no CUDA, no device).
bench::NativeLibraryTimer native_library_timer();

// Runs the section. Throws InputError for unusable options; a CUDA error inside one case is that
// case's error.
GemmSectionResult run_gemm_section(const GemmSpec& spec, const std::string& command,
                                   const bench::BenchProgress& progress);

}  // namespace mmaemu::t6
