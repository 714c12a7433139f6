// The outputs of `mmaemu bench`: JSON for machines (every sample, the statistics, the provenance),
// a Markdown report for people, the short verdict table printed on stdout, and the plot of TMAC/s
// against problem size per backend with the native line.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "bench/t6/svg_plot.hpp"
#include "bench/t6/t6_result.hpp"

namespace mmaemu::t6 {

inline constexpr const char* kT6Schema = "mmaemu-bench-t6/1";

// The target the issue sets for the oracle, measured and shown, never asserted: dot-product-adds
// per second on one core for Hopper's 16-element fp16 blocks.
inline constexpr double kReferenceTarget = 20e6;
inline constexpr const char* kReferenceTargetKey = "dot/sm90/fp16/reference/t1";
// The fast CPU backend's targets, measured and shown, never asserted: the same rate on one core, and
// its speed over MMA-Sim's on the same instruction tiles, one thread each.
inline constexpr double kCpuTarget = 20e6;
inline constexpr const char* kCpuTargetKey = "dot/sm90/fp16/cpu/t1";
inline constexpr double kMmasimTargetRatio = 20;
inline constexpr const char* kMmasimTargetKey = "mmasim/sm90/mma.m16n8k16.f32.f16.f16.f32/cpu/t1";

// The GPU targets of the speed issue, measured and shown, never asserted (the report's "GPU targets"
// table): tc at these shapes and formats against cuBLASLt, the best CUDA-core emulator (v1, v4, v5)
// on 16-bit formats at a large and a decode shape, and the library model's cuda engine against
// cuBLASLt. Shapes as bench::shape_name writes them.
inline constexpr double kTcTargetRatio = 0.5;
inline constexpr const char* kTcTargetShapes[] = {"4096x4096x4096", "8192x8192x8192"};
inline constexpr const char* kTcTargetFormats[] = {"fp16", "bf16", "tf32", "e4m3"};
inline constexpr const char* kCudaCoreFormats[] = {"fp16", "bf16"};
struct CudaCoreTarget {
  const char* shape;
  double tmacs;
};
inline constexpr CudaCoreTarget kCudaCoreTargets[] = {{"4096x4096x4096", 2.0}, {"16x4096x4096", 0.5}};
inline constexpr double kLibraryGpuTargetRatio = 0.25;
inline constexpr const char* kLibraryGpuTargetShape = "4096x4096x4096";

nlohmann::json t6_report_json(const T6Result& r);
std::string t6_report_markdown(const T6Result& r);
std::string t6_verdict_table(const T6Result& r);
// The GPU targets above beside what the run measured (a Markdown table); empty without GPU rows.
std::string gpu_targets_markdown(const T6Result& r);

// One panel per format: a line per backend over the square shapes, markers for the other shapes,
// cuBLASLt dashed.
Plot gemm_plot(const GemmSectionResult& g);

}  // namespace mmaemu::t6
