// Paths of the GPU backends written without a GPU at hand and not yet run on one. Each runs only under
// MMAEMU_GPU_UNCHECKED=1; otherwise its backend declines with the reason below, and the ladder goes on
// to a backend whose path has run on an H200. Whoever sees T3's checks of a path pass on an H200
// (kernels_v4_tc_gpu_test, T3's t3-gpu-wide-wgmma) removes it from this list, with the report.
#pragma once
#include <optional>
#include <string>

namespace mmaemu::kernels {

enum class UncheckedGpuPath {
  tc_pipelined_gemm,  // tc's wide-wgmma GEMM (tc_pipelined.cuh)
  device_operands,    // tc and v4 on GemmProblem::on_device (NativeGemmBuffers narrowing on the device)
};

// The words every such decline holds (tests and tier files match on them).
inline constexpr const char* kUncheckedGpuPathMark = "has not run on a GPU yet";

// Empty when the path may run here (MMAEMU_GPU_UNCHECKED=1), else why not.
std::optional<std::string> unchecked_gpu_path_declines(UncheckedGpuPath path);

}  // namespace mmaemu::kernels
