// CUDA errors become KernelError carrying CUDA's own message: never a silent pass.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "kernels/backend.hpp"

namespace mmaemu::kernels {

inline void cuda_check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw KernelError(std::string(what) + ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

// After a launch: the launch's own error, then the kernel's (synchronising).
inline void cuda_check_launch(const char* kernel) {
  cuda_check(cudaGetLastError(), kernel);
  cuda_check(cudaDeviceSynchronize(), kernel);
}

}  // namespace mmaemu::kernels
