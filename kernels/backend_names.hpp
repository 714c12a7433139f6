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
    {"tiled-fp64", BackendPlace::gpu_cuda_cores},  // cuda/tiled_fp64.cu: tiled's tiles, each block on the fp64 pipe
    {"tiled", BackendPlace::gpu_cuda_cores},       // cuda/tiled.cu: shared-memory tiles, the per-element arithmetic
    {"simt", BackendPlace::gpu_cuda_cores},        // cuda/simt.cu: one thread per output
    {"cpu", BackendPlace::cpu},              // cpu/cpu_backend.cpp
    {"host", BackendPlace::cpu},             // host/host_backend.cpp
    {"reference", BackendPlace::cpu},        // host/reference_backend.cpp
};

// The names the CUDA-core backends had before they were named by their method. They are still
// accepted wherever a backend is named (command line, tier files, Python) and mean the new name;
// canonical_backend_name() maps them and says so once per process. Reports carry the new names.
struct BackendAlias {
  std::string_view old_name;
  std::string_view name;
};
inline constexpr BackendAlias kBackendAliases[] = {{"v1", "simt"}, {"v4", "tiled"}, {"v5", "tiled-fp64"}};

// `name`, or the backend an old alias stands for (with a deprecation warning on stderr, once per
// alias and process). Unknown names come back as they are: finding them is the caller's job.
std::string canonical_backend_name(std::string_view name);

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
