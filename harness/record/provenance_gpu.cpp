// The GPU half of the provenance: device, driver, CUDA runtime, cuBLASLt, compilers.
#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <memory>

#include "harness/cublaslt/lt_loader.hpp"
#include "harness/record/gpu_run.hpp"
#include "harness/record/provenance.hpp"

namespace mmaemu::record {
namespace {

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// The full driver version ("580.95.05"): from NVML when the driver's library is there (loaded at run
// time so the recorder does not depend on it), else from nvidia-smi.
std::string driver_version() {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    using InitFn = int (*)();
    using VersionFn = int (*)(char*, unsigned);
    auto init = reinterpret_cast<InitFn>(dlsym(nvml, "nvmlInit_v2"));
    auto version = reinterpret_cast<VersionFn>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    auto shutdown = reinterpret_cast<InitFn>(dlsym(nvml, "nvmlShutdown"));
    std::array<char, 96> buf{};
    const bool ok = init && version && init() == 0 && version(buf.data(), buf.size()) == 0;
    if (init && shutdown && ok) shutdown();
    dlclose(nvml);
    if (ok) return buf.data();
  }
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null", "r"), pclose);
  std::array<char, 96> buf{};
  if (pipe && std::fgets(buf.data(), buf.size(), pipe.get())) {
    std::string s = buf.data();
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    if (!s.empty()) return s;
  }
  return "unknown";
}

}  // namespace

Provenance collect_provenance(int device, const std::string& command, const std::string& commit) {
  Provenance p;
  p.set("date_utc", utc_now_iso8601());
  p.set("command", command);
  p.set("commit", commit.empty() ? build_commit() : commit);
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    p.set("gpu", prop.name);
    p.set("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
    p.set("sm_count", std::to_string(prop.multiProcessorCount));
  }
  p.set("driver", driver_version());
  int runtime = 0, driver_api = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver_api);
  p.set("cuda_runtime", cuda_version(runtime));
  p.set("cuda_driver_api", cuda_version(driver_api));
  // A version of 0 would read as a library; a process without cuBLASLt says why instead.
  const lt::CublasLtLibrary& lt_library = lt::cublaslt_library();
  p.set("cublaslt", lt_library.loaded ? std::to_string(cublasLtGetVersion()) : "unavailable (" + lt_library.error + ")");
  p.set("compiler", cuda_compiler_version() + " / " + host_compiler());
  p.set("host", host_name());
  return p;
}

}  // namespace mmaemu::record
