// fp64 mma in the kernels: the reference's IEEE fma chain (reference/src/fma_chain.cpp), one output at
// a time, the same code on the CPU (backend "host") and the GPU (v1). There is nothing to emulate in
// it but its order and its NaN: every k is a binary64 fused multiply-add (CUDA's fma() and std::fma are
// both correctly rounded), c first, k ascending, a NaN result canonical.
// Elements are two words each, low word first (ref::words_per_element).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/arith/hd.hpp"

namespace mmaemu::kernels::arith {

inline constexpr uint64_t kFp64CanonicalNan = 0x7FFFFFFFFFFFFFFFull;

MMAEMU_HD double f64_of(const uint32_t* words) {
#if defined(__CUDA_ARCH__)
  return __hiloint2double(static_cast<int>(words[1]), static_cast<int>(words[0]));
#else
  const uint64_t bits = uint64_t{words[0]} | uint64_t{words[1]} << 32;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

MMAEMU_HD void store_f64(uint32_t* words, double x) {
  uint64_t bits;
  if (x != x) {
    bits = kFp64CanonicalNan;
  } else {
#if defined(__CUDA_ARCH__)
    bits = static_cast<uint64_t>(__double_as_longlong(x));
#else
    std::memcpy(&bits, &x, sizeof bits);
#endif
  }
  words[0] = static_cast<uint32_t>(bits);
  words[1] = static_cast<uint32_t>(bits >> 32);
}

// One output of a GEMM over an fma-chain instruction of K `k`: c (two words) plus the products of A's row
// and B's column (element strides a_stride, b_stride), K padded with zeros to a multiple of k; the
// accumulator after each step into trace[s * trace_stride] (element units) when given.
MMAEMU_HD void fma_chain_element(const uint32_t* a_row, size_t a_stride, const uint32_t* b_col, size_t b_stride,
                                 size_t K, size_t k, const uint32_t* c, uint32_t* d, uint32_t* trace = nullptr,
                                 size_t trace_stride = 1) {
  double acc = f64_of(c);
  for (size_t s = 0, base = 0; base < K; ++s, base += k) {
    for (size_t kk = base; kk < base + k; ++kk) {
      const double a = kk < K ? f64_of(a_row + 2 * kk * a_stride) : 0.0;
      const double b = kk < K ? f64_of(b_col + 2 * kk * b_stride) : 0.0;
      acc = fma(a, b, acc);
    }
    if (trace) store_f64(trace + 2 * s * trace_stride, acc);
  }
  store_f64(d, acc);
}

}  // namespace mmaemu::kernels::arith
