// MMAEMU_HD marks the per-element arithmetic as __host__ __device__ under nvcc, so that the CPU build
// (backend "host") runs exactly the code the GPU backends run.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define MMAEMU_HD __host__ __device__ __forceinline__
// The same, kept out of line on the device: for paths a kernel rarely takes, whose code inlined at
// every output would crowd the common path's registers and instruction cache.
#define MMAEMU_HD_COLD __host__ __device__ __noinline__
#else
#define MMAEMU_HD inline
#define MMAEMU_HD_COLD inline
#endif

namespace mmaemu::kernels::arith {

// Index of the most significant set bit of x (x != 0).
MMAEMU_HD int msb64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}

MMAEMU_HD int imax(int a, int b) { return a > b ? a : b; }
MMAEMU_HD int imin(int a, int b) { return a < b ? a : b; }

}  // namespace mmaemu::kernels::arith
