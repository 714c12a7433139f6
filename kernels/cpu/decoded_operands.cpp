#include "kernels/cpu/decoded_operands.hpp"

#include "kernels/arith/emu_dot.hpp"
#include "kernels/cpu/lane_plan.hpp"

namespace mmaemu::kernels::cpu {
namespace {

// One element into the planes at index i; true when it is NaN or Inf.
inline bool decode_into(const arith::FmtParams& f, const arith::BlockParams& bp, uint32_t bits, bool round_tf32,
                        int pre_shift, DecodedPlanes& out, size_t i) {
  if (round_tf32) bits = arith::convert(arith::fmt_params(arith::Fmt::fp32), bits, arith::fmt_params(arith::Fmt::tf32), true);
  const arith::Value v = arith::read_operand(f, bits, bp);
  out.neg[i] = v.neg ? ~0u : 0u;
  switch (v.cls) {
    case arith::Cls::nan:
    case arith::Cls::inf:
    case arith::Cls::zero:
      out.exp[i] = kZeroExp;
      out.sig[i] = 0;
      return v.cls != arith::Cls::zero;
    default:
      out.exp[i] = v.exp;
      out.sig[i] = v.sig << pre_shift;
      return false;
  }
}

// How many of B's rows ahead decode_b prefetches.
constexpr size_t kPrefetchRows = 8;

inline void zero_into(DecodedPlanes& out, size_t i) {
  out.exp[i] = kZeroExp;
  out.sig[i] = 0;
  out.neg[i] = 0;
}

}  // namespace

void DecodedPlanes::resize(size_t elements, size_t lines) {
  exp.resize(elements);
  sig.resize(elements);
  neg.resize(elements);
  special.assign(lines, 0);
}

void decode_a(const arith::InstrParams& ip, const TileSource& src, size_t k0, size_t kn, DecodedPlanes& out) {
  out.resize(src.rows * kn, src.rows);
  for (size_t r = 0; r < src.rows; ++r) {
    const uint32_t* row = src.a + r * src.a_stride;
    bool special = false;
    for (size_t i = 0; i < kn; ++i) {
      const size_t k = k0 + i;
      if (k < src.k_end)
        special |= decode_into(ip.a, ip.block, row[k], src.round_tf32, 0, out, r * kn + i);
      else
        zero_into(out, r * kn + i);
    }
    out.special[r] = special;
  }
}

// One row of B's columns [0, cols) of an IEEE-style format (Inf and NaN at the top exponent, or none)
// without branches on the element, in a loop the compiler vectorises: a decode shape (one row of A
// against all of B) decodes every element of B for one use, so this loop is most of its time. True
// when a column holds NaN or Inf (marked in `special`).
template <bool kIeee>
void decode_row_fast(const arith::FmtParams& f, const uint32_t* __restrict row, size_t cols, int pre_shift,
                     int32_t* __restrict exp, uint32_t* __restrict sig, uint32_t* __restrict neg,
                     uint8_t* __restrict special) {
  const uint32_t mmask = arith::low_mask(f.man_bits), emask = arith::low_mask(f.exp_bits);
  const uint32_t man_shift = static_cast<uint32_t>(f.man_shift), exp_shift = man_shift + f.man_bits;
  const uint32_t sign_shift = static_cast<uint32_t>(f.storage_bits - 1), hidden = 1u << f.man_bits;
  const int32_t bias = f.bias;
  for (size_t j = 0; j < cols; ++j) {
    const uint32_t bits = row[j];
    const uint32_t frac = (bits >> man_shift) & mmask;
    const uint32_t field = (bits >> exp_shift) & emask;
    const uint32_t top = kIeee ? static_cast<uint32_t>(field == emask) : 0u;
    const uint32_t none = top | static_cast<uint32_t>((field | frac) == 0);
    neg[j] = 0u - ((bits >> sign_shift) & 1u);
    exp[j] = none ? kZeroExp : static_cast<int32_t>(field + (field == 0)) - bias;
    sig[j] = none ? 0u : (frac | (field != 0 ? hidden : 0u)) << pre_shift;
    special[j] |= static_cast<uint8_t>(top);
  }
}

void decode_b(const arith::InstrParams& ip, const TileSource& src, size_t k0, size_t kn, int pre_shift,
              DecodedPlanes& out) {
  const size_t lanes = src.lanes;
  out.resize(kn * lanes, lanes);
  // The fast row decode takes formats whose only specials are IEEE's (or none) and no tf32 rounding.
  const arith::FmtParams& f = ip.b;
  const bool fast = !src.round_tf32 && !(f.id == arith::Fmt::tf32 && ip.block.tf32_input_nearest) &&
                    (f.specials == arith::Specials::ieee || f.specials == arith::Specials::finite_no_nan);
  for (size_t i = 0; i < kn && fast; ++i) {
    const size_t k = k0 + i;
    const size_t at = i * lanes;
    if (k < src.k_end) {
      const uint32_t* row = src.b + k * src.b_stride;
      if (k + kPrefetchRows < src.k_end)
        for (size_t j = 0; j < src.cols; j += 64 / sizeof(uint32_t)) __builtin_prefetch(row + kPrefetchRows * src.b_stride + j);
      if (f.specials == arith::Specials::ieee)
        decode_row_fast<true>(f, row, src.cols, pre_shift, &out.exp[at], &out.sig[at], &out.neg[at], out.special.data());
      else
        decode_row_fast<false>(f, row, src.cols, pre_shift, &out.exp[at], &out.sig[at], &out.neg[at], out.special.data());
      for (size_t j = src.cols; j < lanes; ++j) zero_into(out, at + j);
    } else {
      for (size_t j = 0; j < lanes; ++j) zero_into(out, at + j);
    }
  }
  if (fast) return;
  for (size_t i = 0; i < kn; ++i) {
    const size_t k = k0 + i;
    const uint32_t* row = src.b + k * src.b_stride;
    // The tile reads a short run of each of B's rows, one long row stride apart: a pattern the hardware
    // prefetchers follow poorly, and where few rows of A share the decoding (a decode step's GEMV) the
    // loads' misses were most of the time. The rows a few steps ahead are asked for now.
    if (k + kPrefetchRows < src.k_end)
      for (size_t j = 0; j < src.cols; j += 64 / sizeof(uint32_t))
        __builtin_prefetch(row + kPrefetchRows * src.b_stride + j);
    for (size_t j = 0; j < lanes; ++j) {
      if (k < src.k_end && j < src.cols) {
        if (decode_into(ip.b, ip.block, row[j], src.round_tf32, pre_shift, out, i * lanes + j)) out.special[j] = 1;
      } else {
        zero_into(out, i * lanes + j);
      }
    }
  }
}

}  // namespace mmaemu::kernels::cpu
