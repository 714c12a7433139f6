// Every backend this project has, built here or not: the one list of their names, in ladder order
// (fastest first), with where each runs. The registry orders its ladder by it, tier files' `backends:`
// are checked against it (a GPU backend named on a build without CUDA is a skip, not a typo), and the
// benchmarks take their GPU backends from it. Which of them this build holds is the registry's
// (kernels/registry.cpp, by what was compiled).
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace mmaemu::kernels {

enum class BackendPlace { gpu_tensor_cores, gpu_cuda_cores, cpu };

struct BackendName {
  std::string_view name;
  BackendPlace place;
};

inline constexpr BackendName kBackendNames[] = {
    {"tc", BackendPlace::gpu_tensor_cores},  // cuda/tc_native.cu
    {"v5", BackendPlace::gpu_cuda_cores},    // cuda/v5_wide.cu
    {"v4", BackendPlace::gpu_cuda_cores},    // cuda/v4_tiled.cu
    {"v1", BackendPlace::gpu_cuda_cores},    // cuda/v1_plain.cu
    {"cpu", BackendPlace::cpu},              // cpu/cpu_backend.cpp
    {"host", BackendPlace::cpu},             // host/host_backend.cpp
    {"reference", BackendPlace::cpu},        // host/reference_backend.cpp
};

// The names of the backends in these places, in ladder order.
inline std::vector<std::string> backend_names_in(std::initializer_list<BackendPlace> places) {
  std::vector<std::string> out;
  for (const BackendName& b : kBackendNames)
    for (BackendPlace p : places)
      if (b.place == p) out.emplace_back(b.name);
  return out;
}
inline std::vector<std::string> gpu_backend_names() {
  return backend_names_in({BackendPlace::gpu_tensor_cores, BackendPlace::gpu_cuda_cores});
}
inline std::vector<std::string> cuda_core_backend_names() { return backend_names_in({BackendPlace::gpu_cuda_cores}); }

}  // namespace mmaemu::kernels
