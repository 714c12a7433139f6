#include "kernels/cuda/cuda_device.hpp"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"

namespace mmaemu::kernels {

std::string no_cuda_device_reason(int cuda_error) {
  const auto err = static_cast<cudaError_t>(cuda_error);
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
    return "no NVIDIA GPU on this machine (no NVIDIA driver is installed)";
  if (err == cudaSuccess || err == cudaErrorNoDevice) return "no NVIDIA GPU on this machine (the driver sees none)";
  return "no usable CUDA device: " + std::string(cudaGetErrorString(err));
}

Declined cuda_device_declines() {
  static const Declined why = []() -> Declined {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) cudaGetLastError();  // clear the sticky error of a failed query
    if (err != cudaSuccess || count == 0) return decline(DeclineCode::no_gpu, no_cuda_device_reason(err));
    return std::nullopt;
  }();
  return why;
}

int cuda_device_sm() {
  if (cuda_device_declines()) return 0;
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  return major * 10 + minor;
}

void check_written(const uint32_t* out, const GemmShape& s, size_t per_output, const char* what, size_t words) {
  const size_t total = c_count(s) * per_output;
  for (size_t i = 0; i < total; ++i) {
    if (out[i * words + words - 1] != kPoison) continue;
    const size_t o = i / per_output, n = o % s.N, m = (o / s.N) % s.M, b = o / (s.N * s.M);
    std::string where = "(" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(n) + ")";
    if (per_output > 1) where += " step " + std::to_string(i % per_output);
    throw KernelError(std::string(what) + " " + where + " left unwritten");
  }
}

EventTimer::EventTimer() {
  cudaEvent_t a, b;
  cuda_check(cudaEventCreate(&a), "cudaEventCreate");
  if (const cudaError_t err = cudaEventCreate(&b); err != cudaSuccess) {
    cudaEventDestroy(a);
    cuda_check(err, "cudaEventCreate");
  }
  start_ = a;
  stop_ = b;
}

EventTimer::~EventTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}

void EventTimer::start() { cuda_check(cudaEventRecord(static_cast<cudaEvent_t>(start_)), "cudaEventRecord"); }

double EventTimer::stop_ms() {
  cuda_check(cudaEventRecord(static_cast<cudaEvent_t>(stop_)), "cudaEventRecord");
  cuda_check(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)),
             "cudaEventElapsedTime");
  return ms;
}

}  // namespace mmaemu::kernels
