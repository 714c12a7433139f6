// The T-FDPA block of emu_dot.hpp in double precision, for processors whose fast arithmetic is floating
// point (the GPU's fp64 pipe): the same bits as block(), with the exact integer sum replaced by an
// exact double sum.
//
// Why it is exact. Operands are decoded once into doubles (every format of a block's operands has at
// most 24 significand bits, so a value and a product of two are exact in 53). A term of block() is the
// product (or the addend) truncated to a multiple of the grid g = 2^(emax - F), toward zero or toward
// -inf. The block's sum runs as one double, the chain S = M + (the terms so far), started at
// M = 1.5 * 2^E, E = emax - F + 52: every term has |t| < 2^(emax + 2), and the terms of a block sum to
// at most (L + 1) * 2^(emax + 2) < 2^(E - 1) in magnitude (block_sum_bits(L, F) <= 51), so S stays in
// M's binade [2^E, 2^(E+1)), whose last place is g. There S + p (p exact) rounded down is
// S + floor(p / g) * g and rounded up S + ceil(p / g) * g: truncation toward zero is a fused
// multiply-add rounded down for p >= 0 and up for p < 0, truncation toward -inf one rounded down.
// S - M is then the exact sum of the terms, and the same round_to gives the block's result.
// Only finite operands and addends take this path: wide_step says false for a NaN or Inf anywhere
// (and for an instruction wide_declines), and the caller runs emu_step on the raw bits instead, so
// the rules for specials live in one place.
#pragma once
#include <climits>
#include <cstdint>
#include <cstring>
#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/fma_chain.hpp"  // f64_from_bits

namespace mmaemu::kernels::arith {

// An operand decoded once for every block that reads it: its exact value, and the exponent the block
// aligns by (Value::exp; meaningless for a zero, which never aligns). Specials have no WideOperand.
struct WideOperand {
  double v;
  int exp;
  bool zero;
};

// 2^e for a normal double exponent (-1022 <= e <= 1023).
MMAEMU_HD double pow2(int e) { return f64_from_bits(static_cast<uint64_t>(e + 1023) << 52); }

// x + y rounded down. On the host the nearest sum and its exact error (TwoSum), stepped one place
// down where the nearest went up; the device has it as an instruction.
MMAEMU_HD double add_down(double x, double y) {
#if defined(__CUDA_ARCH__)
  return __dadd_rd(x, y);
#else
  const double s = x + y, yy = s - x, err = (x - (s - yy)) + (y - yy);
  return err < 0 ? std::nextafter(s, -HUGE_VAL) : s;
#endif
}
MMAEMU_HD double fabs_hd(double x) {
#if defined(__CUDA_ARCH__)
  return fabs(x);
#else
  return std::fabs(x);
#endif
}
MMAEMU_HD bool sign_of(double x) {
#if defined(__CUDA_ARCH__)
  return signbit(x);
#else
  return std::signbit(x);
#endif
}

// Why an instruction cannot take this path (none: it can). A value, so that the backend maps it to its
// decline code (tiled_fp64.cu) and device code can ask it too.
enum class WideDecline { none, lowered, block_scaled, too_wide };
MMAEMU_HD WideDecline wide_declines(const OpParams& p) {
  if (p.lowered) return WideDecline::lowered;
  if (p.instr.scale.present) return WideDecline::block_scaled;
  const BlockParams& bp = p.instr.block;
  if (bp.F > 48 || block_sum_bits(bp.L, bp.F) > 51) return WideDecline::too_wide;
  return WideDecline::none;
}
inline const char* wide_decline_text(WideDecline why) {
  switch (why) {
    case WideDecline::lowered: return "lowered instructions run as their lowering";
    case WideDecline::block_scaled: return "block-scaled instructions";
    case WideDecline::too_wide: return "a block sum wider than a double's chain holds (51 bits above its grid)";
    case WideDecline::none: break;
  }
  return "";
}

// The operand as blocks read it (decode()'s Value as a double); false for NaN and Inf. Written without
// branches on the class: the GPU decodes every operand of a stage with it, where decode()'s classes
// cost several times the arithmetic.
MMAEMU_HD bool wide_operand(const FmtParams& f, uint32_t bits, const BlockParams& bp, WideOperand& out) {
  if (f.id == Fmt::tf32 && bp.tf32_input_nearest) bits = convert(fmt_params(Fmt::fp32), bits, f, true);  // read_operand's
  const uint32_t frac = (bits >> f.man_shift) & low_mask(f.man_bits);
  const uint32_t field = (bits >> (f.man_shift + f.man_bits)) & low_mask(f.exp_bits);
  const uint64_t sign = static_cast<uint64_t>((bits >> (f.storage_bits - 1)) & 1u) << 63;
  const bool top = field == low_mask(f.exp_bits);
  const bool special = f.specials == Specials::ieee             ? top
                       : f.specials == Specials::finite_one_nan ? top && frac == low_mask(f.man_bits)
                                                                : false;
  const uint32_t sig = frac | (field != 0 ? 1u << f.man_bits : 0u);
  const int exp = (field != 0 ? static_cast<int>(field) : 1) - f.bias;
  const double mag = static_cast<double>(sig) * pow2(exp - f.man_bits);
  out = {f64_from_bits(bits_from_f64(mag) | sign), exp, sig == 0};  // the sign as a bit: -0 for a negative zero
  return !special;
}


// The chain's origin M for a block aligned at emax (see the top of the file): 1.5 * 2^E.
MMAEMU_HD double chain_origin(const BlockParams& bp, int emax) {
  return f64_from_bits((static_cast<uint64_t>(emax - bp.F + 52 + 1023) << 52) | (uint64_t{1} << 51));
}

// The chain s plus the term of the product a * b: the product truncated to the block's grid, as
// block()'s add_term truncates it. A zero product adds nothing.
//
// One rounding direction serves both signs: truncating p toward zero is flooring |p|, so with
// sigma the product's sign, s' = sigma * (sigma * s + |a| * |b| rounded down): for sigma = -1,
// -s + |p| lies in -s's binade, where rounding down moves toward -inf by the bits of |p| below the
// grid, and negating it back gives s - floor(|p| / g) * g = s + trunc(p). The GPU's tile kernel keeps
// sigma * s' as its running chain and sets the next product's sign with one logic operation
// (kernels/cuda/tiled_fp64_gemm.cuh); this is the same arithmetic, one product at a time.
MMAEMU_HD double chain_add(const BlockParams& bp, double s, double a, double b) {
  constexpr uint64_t kSign = uint64_t{1} << 63;
#if defined(__CUDA_ARCH__)
  if (bp.floor_truncation) return __fma_rd(a, b, s);
  const uint64_t sigma = (bits_from_f64(a) ^ bits_from_f64(b)) & kSign;  // the product's sign, as a bit
  return f64_from_bits(bits_from_f64(__fma_rd(fabs(a), fabs(b), f64_from_bits(bits_from_f64(s) ^ sigma))) & ~kSign);
#else
  if (bp.floor_truncation) return add_down(s, a * b);  // exact product: at most 48 significand bits
  const uint64_t sigma = (bits_from_f64(a) ^ bits_from_f64(b)) & kSign;
  return f64_from_bits(bits_from_f64(add_down(f64_from_bits(bits_from_f64(s) ^ sigma), std::fabs(a) * std::fabs(b))) & ~kSign);
#endif
}

// The double nearest below in magnitude (toward zero) as a float: an instruction on the device; on the
// host the nearest float, stepped back one place where it rounded away from zero.
MMAEMU_HD float to_float_toward_zero(double x) {
#if defined(__CUDA_ARCH__)
  return __double2float_rz(x);
#else
  const float f = static_cast<float>(x);
  return std::fabs(static_cast<double>(f)) > std::fabs(x) ? std::nextafterf(f, 0.0f) : f;
#endif
}

// A block's result from the exact sum of its terms (not all of them zero) and its alignment exponent:
// block_result's rounding. Blocks that round toward zero to fp32 or e8m13 (Hopper's 16-bit, tf32 and
// FP8 blocks) convert the sum directly: one rounding toward zero to fp32 is block_result's for fp32,
// and e8m13 (fp32's range, 13 fraction bits) is that truncated further, normal and subnormal alike,
// short of fp32's overflow (|sum| >= 2^128), which block_result turns into Inf or the largest value as
// the profile says. Every other block takes block_result on the sum in units of its grid.
//
// In pieces, so that a kernel can convert all of its outputs without branches and send the few that
// do not fit to the general rounding afterwards: wide_result is converts(bp) && fits(sum) ?
// converted : rounded.
MMAEMU_HD constexpr bool wide_result_converts(const BlockParams& bp) {
  return (bp.result.id == Fmt::fp32 || bp.result.id == Fmt::e8m13) && !bp.round_nearest;
}
MMAEMU_HD bool wide_result_fits(double sum) { return fabs_hd(sum) < pow2(128); }
MMAEMU_HD uint32_t wide_result_converted(const BlockParams& bp, double sum) {
  const float f = to_float_toward_zero(sum);
  uint32_t r;
#if defined(__CUDA_ARCH__)
  r = __float_as_uint(f);
#else
  std::memcpy(&r, &f, sizeof r);
#endif
  r &= ~low_mask(bp.result.man_shift);  // e8m13: its 13 fraction bits of fp32's 23
  return r == zero_bits(bp.result, true) ? zero_bits(bp.result, false) : r;  // a sum that rounds to 0: +0
}
// The general rounding, by value (a reference would let the out-of-line call write the caller's
// compile-time parameters, as far as the compiler knows).
MMAEMU_HD uint32_t wide_result_rounded(BlockParams bp, int emax, double sum) {
  BlockScan scan{bp};
  scan.emax = emax;
  scan.all_zero = false;
  return block_result(scan, static_cast<int64_t>(sum * pow2(bp.F - emax)));
}
MMAEMU_HD_COLD uint32_t wide_result_rounded_cold(BlockParams bp, int emax, double sum) {
  return wide_result_rounded(bp, emax, sum);
}
MMAEMU_HD uint32_t wide_result(const BlockParams& bp, int emax, double sum) {
  if (!wide_result_converts(bp)) return wide_result_rounded(bp, emax, sum);
  return wide_result_fits(sum) ? wide_result_converted(bp, sum) : wide_result_rounded_cold(bp, emax, sum);
}

// One block over the loader's elements [start, start + n): load(i) gives the i-th pair of decoded
// operands (a WideOperand pointer each). False when the addend is NaN or Inf (out untouched).
template <class WideLoad>
MMAEMU_HD bool wide_block(const BlockParams& bp, const WideLoad& load, int start, int n, const FmtParams& fc,
                          uint32_t c_bits, uint32_t& out) {
  const Value c = decode(fc, c_bits);
  if (c.cls == Cls::nan || c.cls == Cls::inf) return false;
  // Pass 1: the alignment exponent, as BlockScan gathers it.
  BlockScan scan{bp};
  for (int i = start; i < start + n; ++i) {
    const WideOperand *a, *b;
    load(i, a, b);
    if (a->zero || b->zero)
      scan.zero_term(sign_of(a->v) != sign_of(b->v));
    else
      scan.term(a->exp + b->exp);
  }
  scan.addend(c);
  if (scan.all_zero) {
    out = block_result(scan, 0);
    return true;
  }
  // Pass 2: the chain of the truncated terms.
  const double origin = chain_origin(bp, scan.emax);
  double chain = origin;
  for (int i = start; i < start + n; ++i) {
    const WideOperand *a, *b;
    load(i, a, b);
    chain = chain_add(bp, chain, a->v, b->v);
  }
  if (c.cls != Cls::zero) {
    const double cv = static_cast<double>(c.sig) * pow2(c.exp - fc.man_bits);
    chain = chain_add(bp, chain, c.neg ? -cv : cv, 1.0);
  }
  const double sum = chain - origin;  // exact: both in the chain's binade
  out = wide_result(bp, scan.emax, sum);
  return true;
}

// One instruction step of an instruction wide_declines takes, as emu_step computes it (the blocks of
// L chained from c, in format fc, the last one short). False when a NaN or Inf meets a block: d is
// then unspecified and the caller runs emu_step.
template <class WideLoad>
MMAEMU_HD bool wide_step(const InstrParams& ip, const WideLoad& load, uint32_t c, const FmtParams& fc, uint32_t& d) {
  const FmtParams* acc_fmt = &fc;
  uint32_t acc = c;
  for (int start = 0; start < ip.k; start += ip.block.L) {
    if (!wide_block(ip.block, load, start, imin(ip.block.L, ip.k - start), *acc_fmt, acc, acc)) return false;
    acc_fmt = &ip.block.result;
  }
  d = to_output(*acc_fmt, acc, ip.d);
  return true;
}

}  // namespace mmaemu::kernels::arith
