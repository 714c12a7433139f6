#include "harness/api/devices.hpp"

#ifdef MMAEMU_HAVE_CUDA
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include "harness/cublaslt/lt_loader.hpp"
#include "kernels/cuda/cuda_device.hpp"
#endif

namespace mmaemu::api {
namespace {
[[maybe_unused]] std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}
}  // namespace

DeviceReport query_devices() {
  DeviceReport r;
#ifdef MMAEMU_HAVE_CUDA
  r.built_with_cuda = true;
  int v = 0;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) r.cuda_runtime = version_string(v);
  if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0) r.cuda_driver = version_string(v);
  if (const lt::CublasLtLibrary& lt_library = lt::cublaslt_library(); lt_library.loaded)
    r.cublaslt = std::to_string(cublasLtGetVersion()) + " (" + lt_library.file + ")";
  else
    r.cublaslt = lt_library.error;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    if (e != cudaSuccess) cudaGetLastError();
    r.status = kernels::no_cuda_device_reason(e);
    return r;
  }
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    r.devices.push_back({i, p.name, std::to_string(p.major) + "." + std::to_string(p.minor),
                         p.multiProcessorCount});
  }
  r.status = std::to_string(r.devices.size()) + " CUDA device(s)";
#else
  r.status = "built without CUDA";
#endif
  return r;
}

}  // namespace mmaemu::api
