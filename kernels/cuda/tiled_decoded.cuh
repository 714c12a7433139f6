// tiled's fast path: operands decoded once per stage (not once per output and pass), then the T-FDPA
// block of kernels/arith evaluated on the decoded operands with arith's own pieces (add_term,
// round_to, decode, to_output). Only the common case is taken here: finite operands and addend, and
// not every term zero. An output whose step meets anything else (NaN, Inf, an all-zero block) is
// marked rare and tiled runs arith::emu_step on the raw bits for it, so the rare rules live in one place.
// Used only for single-block instructions (k == L) whose operand significands fit 12 bits (16-bit, tf32 and FP8 formats) and
// instructions that are not lowered; the host checks both before it picks a kernel with this path.
#pragma once
#include <cstdint>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/formats.hpp"
#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::tiled {

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

// arith::add_term in 32 bits, for blocks whose exact sum fits them (block_sum_bits(L, F) <= 30, e.g.
// Hopper FP8: L = 32, F = 13, 21 bits): then every term is <= 2^(F+2) <= 2^28 and the sum's magnitude
// <= (L+1) * 2^(F+2) <= 2^30 (emu_dot.hpp's bound), and sig < 2^32 (significand products of at most 12 x 12 bits, addends
// of at most 24), so each operation below gives what add_term's 64-bit one gives.
__device__ __forceinline__ void add_term32(int32_t& sum, bool neg, uint32_t sig, int exp, int frac_bits, int emax,
                                           const arith::BlockParams& bp) {
  const int shift = exp - frac_bits - emax + bp.F;
  uint32_t t;
  bool inexact;
  if (shift >= 0) {
    t = sig << shift;
    inexact = false;
  } else if (shift <= -32) {
    t = 0;
    inexact = true;  // sig != 0 and sig < 2^32: every bit is dropped, as in the 64-bit shift
  } else {
    t = sig >> -shift;
    inexact = (t << -shift) != sig;
  }
  if (neg && inexact && bp.floor_truncation) ++t;
  sum += neg ? -static_cast<int32_t>(t) : static_cast<int32_t>(t);
}


template <class Sum>
__device__ __forceinline__ void add_any(Sum& sum, bool neg, uint32_t sig, int exp, int frac_bits, int emax,
                                        const arith::BlockParams& bp) {
  if constexpr (sizeof(Sum) == 4)
    add_term32(sum, neg, sig, exp, frac_bits, emax, bp);
  else
    arith::add_term(sum, neg, sig, exp, frac_bits, emax, bp);
}

// Pass 2 of decoded_tile_step for the outputs not marked rare: the exact sum of the truncated terms
// by arith's own add_term (or its 32-bit twin), the addend, the rounding and D's format.
template <class Sum, int R, int C>
__device__ __forceinline__ void tile_sums(const arith::OpParams& p, const uint32_t* a, int a_row, const uint32_t* b,
                                          int b_col, int b_k, int pf, const int (&emax)[R][C],
                                          const bool (&rare)[R][C], uint32_t (&acc)[R][C]) {
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  Sum sum[R][C];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) sum[i][j] = 0;
  for (int k = 0; k < ip.k; ++k) {
    uint32_t wa[R], wb[C];
    for (int i = 0; i < R; ++i) wa[i] = a[i * a_row + k];
    for (int j = 0; j < C; ++j) wb[j] = b[j * b_col + k * b_k];
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const int pe = packed_exp(wa[i]) + packed_exp(wb[j]);
        if (pe < kZeroLimit || rare[i][j]) continue;
        add_any(sum[i][j], ((wa[i] ^ wb[j]) >> 15) & 1u, (wa[i] & 0xFFFu) * (wb[j] & 0xFFFu), pe, pf, emax[i][j], bp);
      }
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      if (rare[i][j]) continue;
      const arith::Value c = arith::decode(ip.c, acc[i][j]);
      Sum s = sum[i][j];
      if (c.cls != arith::Cls::zero) add_any(s, c.neg, c.sig, c.exp, ip.c.man_bits, emax[i][j], bp);
      const bool neg = s < 0;
      const int64_t wide = s;
      const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(wide) : static_cast<uint64_t>(wide);
      const uint32_t r = arith::round_to(bp.result, neg, mag, emax[i][j] - bp.F, bp.round_nearest, bp.rz_overflow_to_inf);
      const uint32_t x = r == arith::zero_bits(bp.result, true) ? arith::zero_bits(bp.result, false) : r;
      acc[i][j] = arith::to_output(bp.result, x, ip.d);
    }
}

// One instruction step (one block: k == L) of a thread's R x C outputs from decoded operands, k
// outermost, so that each decoded operand is read from shared memory once per pass for all the outputs
// that share it; output (i, j) reads a[i * a_row + k] and b[j * b_col + k * b_k]. Per output this is
// arith::block on the decoded operands. rare[i][j]: the step was not taken (acc[i][j] untouched) and
// the caller runs arith::emu_step for it.
template <int R, int C>
__device__ __forceinline__ void decoded_tile_step(const arith::OpParams& p, const uint32_t* a, int a_row,
                                                  const uint32_t* b, int b_col, int b_k, uint32_t (&acc)[R][C],
                                                  bool (&rare)[R][C]) {
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  const int K = ip.k;  // == bp.L
  const int pf = ip.a.man_bits + ip.b.man_bits;
  const int zero_exp = bp.has_zero_product_exp ? bp.zero_product_exp : kNoExp;
  // Pass 1: emax (zero products at the profile's fixed exponent), and the largest exponent sum.
  int emax[R][C], ereal[R][C];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) emax[i][j] = ereal[i][j] = kNoExp;
  for (int k = 0; k < K; ++k) {
    int ea[R], eb[C];
    for (int i = 0; i < R; ++i) ea[i] = packed_exp(a[i * a_row + k]);
    for (int j = 0; j < C; ++j) eb[j] = packed_exp(b[j * b_col + k * b_k]);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const int pe = ea[i] + eb[j];
        ereal[i][j] = arith::imax(ereal[i][j], pe);
        emax[i][j] = arith::imax(emax[i][j], pe < kZeroLimit ? zero_exp : pe);
      }
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const arith::Value c = arith::decode(ip.c, acc[i][j]);
      rare[i][j] = c.cls == arith::Cls::nan || c.cls == arith::Cls::inf || ereal[i][j] > kSpecialLimit ||
                   (c.cls == arith::Cls::zero && ereal[i][j] < kZeroLimit);
      emax[i][j] = arith::imax(emax[i][j], c.cls == arith::Cls::zero ? zero_exp : c.exp);
    }
  // Pass 2: the exact sums (32 bits where they fit, as decoded_step), then the addend and the rounding.
  if (arith::block_sum_bits(bp.L, bp.F) <= 30)
    tile_sums<int32_t>(p, a, a_row, b, b_col, b_k, pf, emax, rare, acc);
  else
    tile_sums<int64_t>(p, a, a_row, b, b_col, b_k, pf, emax, rare, acc);
}

}  // namespace mmaemu::kernels::tiled
