// v4's fast path: operands decoded once per stage (not once per output and pass), then the T-FDPA
// block of kernels/arith evaluated on the decoded operands with arith's own pieces (add_term,
// round_to, decode, to_output). Only the common case is taken here: finite operands and addend, and
// not every term zero. A step that meets anything else (NaN, Inf, an all-zero block) returns false
// and v4 runs arith::emu_step on the raw bits instead, so the rare rules live in one place.
// Used only for blocks whose operand significands fit 12 bits (16-bit, tf32 and FP8 formats) and
// instructions that are not lowered; the host checks both before it picks a kernel with this path.
#pragma once
#include <cstdint>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/formats.hpp"
#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::v4 {

// A decoded operand in one word: exponent in the top 16 bits (signed), sign in bit 15, significand
// (implicit bit included) in bits 0..11. Zero gets kZeroExp and NaN / Inf kSpecialExp, so that a
// product's exponent sum tells its kind: < kZeroLimit a zero product, > kSpecialLimit a special one.
inline constexpr int kZeroExp = -2048, kSpecialExp = 8192;
inline constexpr int kZeroLimit = -1000, kSpecialLimit = 2048;
inline constexpr int kNoExp = -(1 << 30);

__device__ __forceinline__ uint32_t pack_operand(const arith::FmtParams& f, uint32_t bits, const arith::BlockParams& bp) {
  const arith::Value v = arith::read_operand(f, bits, bp);
  int e = v.exp;
  uint32_t sig = v.sig;
  if (v.cls == arith::Cls::zero) {
    e = kZeroExp;
    sig = 0;
  } else if (v.cls == arith::Cls::nan || v.cls == arith::Cls::inf) {
    e = kSpecialExp;
    sig = 0;
  }
  return (static_cast<uint32_t>(e) << 16) | (v.neg ? 0x8000u : 0u) | (sig & 0xFFFu);
}

__device__ __forceinline__ int packed_exp(uint32_t w) { return static_cast<int>(w) >> 16; }

// One instruction step of output (row, col) from decoded operands: a[i] along the row, b[i * b_stride]
// down the column. On success writes the step's D to acc; false (acc untouched) for the rare cases.
__device__ __forceinline__ bool decoded_step(const arith::OpParams& p, const uint32_t* a, const uint32_t* b,
                                             int b_stride, uint32_t& acc) {
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  const int pf = ip.a.man_bits + ip.b.man_bits;
  const int zero_exp = bp.has_zero_product_exp ? bp.zero_product_exp : kNoExp;
  const arith::FmtParams* acc_fmt = &ip.c;
  uint32_t x = acc;
  for (int start = 0; start < ip.k; start += bp.L) {
    const int n = arith::imin(bp.L, ip.k - start);
    const arith::Value c = arith::decode(*acc_fmt, x);
    if (c.cls == arith::Cls::nan || c.cls == arith::Cls::inf) return false;
    // Pass 1: emax (zero products at the profile's fixed exponent), and the largest exponent sum.
    int emax = kNoExp, ereal = kNoExp;
    for (int i = start; i < start + n; ++i) {
      const int pe = packed_exp(a[i]) + packed_exp(b[i * b_stride]);
      ereal = arith::imax(ereal, pe);
      emax = arith::imax(emax, pe < kZeroLimit ? zero_exp : pe);
    }
    if (ereal > kSpecialLimit) return false;  // a NaN or Inf operand
    if (c.cls == arith::Cls::zero) {
      if (ereal < kZeroLimit) return false;  // every term zero: the signed-zero rule
      emax = arith::imax(emax, zero_exp);
    } else {
      emax = arith::imax(emax, c.exp);
    }
    // Pass 2: the exact sum of the truncated terms, by arith's own add_term.
    int64_t sum = 0;
    for (int i = start; i < start + n; ++i) {
      const uint32_t wa = a[i], wb = b[i * b_stride];
      const int pe = packed_exp(wa) + packed_exp(wb);
      if (pe < kZeroLimit) continue;
      const uint64_t sig = static_cast<uint64_t>(wa & 0xFFFu) * (wb & 0xFFFu);
      arith::add_term(sum, ((wa ^ wb) >> 15) & 1u, sig, pe, pf, emax, bp);
    }
    if (c.cls != arith::Cls::zero) arith::add_term(sum, c.neg, c.sig, c.exp, acc_fmt->man_bits, emax, bp);
    const bool neg = sum < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
    const uint32_t r = arith::round_to(bp.result, neg, mag, emax - bp.F, bp.round_nearest, bp.rz_overflow_to_inf);
    x = r == arith::zero_bits(bp.result, true) ? arith::zero_bits(bp.result, false) : r;
    acc_fmt = &bp.result;
  }
  acc = arith::to_output(*acc_fmt, x, ip.d);
  return true;
}

}  // namespace mmaemu::kernels::v4
