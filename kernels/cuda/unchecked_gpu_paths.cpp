#include "kernels/cuda/unchecked_gpu_paths.hpp"

#include <cstdlib>
#include <string_view>

namespace mmaemu::kernels {

std::optional<std::string> unchecked_gpu_path_declines(UncheckedGpuPath path) {
  static const bool allowed = [] {
    const char* env = std::getenv("MMAEMU_GPU_UNCHECKED");
    return env && std::string_view(env) == "1";
  }();
  if (allowed) return std::nullopt;
  const char* what = path == UncheckedGpuPath::tc_pipelined_gemm ? "the pipelined wide-wgmma GEMM"
                                                                 : "the device-resident operand path";
  return std::string(what) + " " + kUncheckedGpuPathMark + " (MMAEMU_GPU_UNCHECKED=1 runs it)";
}

}  // namespace mmaemu::kernels
