// fp64 mma in the kernels: the reference's IEEE fma chain (reference/src/fma_chain.cpp), one output at
// a time, the same code on the CPU (backend "host") and the GPU (simt). There is nothing to emulate in
// it but its order and its NaN rules: every k is a binary64 fused multiply-add (CUDA's fma() and
// std::fma are both correctly rounded), c first, k ascending; a NaN operand's payload travels (b's,
// else the accumulator's, else a's, quieted) and an invalid operation gives 0xFFF8000000000000.
// Elements are two words each, low word first (ref::words_per_element).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/arith/hd.hpp"

namespace mmaemu::kernels::arith {

inline constexpr uint64_t kFp64DefaultNan = 0xFFF8000000000000ull, kFp64QuietBit = uint64_t{1} << 51;

MMAEMU_HD uint64_t bits_of(const uint32_t* words) { return uint64_t{words[0]} | uint64_t{words[1]} << 32; }

MMAEMU_HD void store_bits(uint32_t* words, uint64_t bits) {
  words[0] = static_cast<uint32_t>(bits);
  words[1] = static_cast<uint32_t>(bits >> 32);
}

MMAEMU_HD double f64_from_bits(uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

MMAEMU_HD uint64_t bits_from_f64(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(x));
#else
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
#endif
}

MMAEMU_HD bool is_nan_f64(uint64_t bits) { return (bits & ~(uint64_t{1} << 63)) > 0x7FF0000000000000ull; }

// One step, acc' = fma(a, b, acc), with the H200's NaN rules.
MMAEMU_HD uint64_t fma_step(uint64_t a, uint64_t b, uint64_t acc) {
  if (is_nan_f64(b)) return b | kFp64QuietBit;
  if (is_nan_f64(acc)) return acc | kFp64QuietBit;
  if (is_nan_f64(a)) return a | kFp64QuietBit;
  const double r = fma(f64_from_bits(a), f64_from_bits(b), f64_from_bits(acc));
  return r != r ? kFp64DefaultNan : bits_from_f64(r);
}

// One output of a GEMM over an fma-chain instruction of K `k`: c (two words) plus the products of A's row
// and B's column (element strides a_stride, b_stride), K padded with zeros to a multiple of k; the
// accumulator after each step into trace[s * trace_stride] (element units) when given.
MMAEMU_HD void fma_chain_element(const uint32_t* a_row, size_t a_stride, const uint32_t* b_col, size_t b_stride,
                                 size_t K, size_t k, const uint32_t* c, uint32_t* d, uint32_t* trace = nullptr,
                                 size_t trace_stride = 1) {
  uint64_t acc = bits_of(c);
  for (size_t s = 0, base = 0; base < K; ++s, base += k) {
    for (size_t kk = base; kk < base + k; ++kk) {
      const uint64_t a = kk < K ? bits_of(a_row + 2 * kk * a_stride) : 0;
      const uint64_t b = kk < K ? bits_of(b_col + 2 * kk * b_stride) : 0;
      acc = fma_step(a, b, acc);
    }
    if (trace) store_bits(trace + 2 * s * trace_stride, acc);
  }
  store_bits(d, acc);
}

}  // namespace mmaemu::kernels::arith
