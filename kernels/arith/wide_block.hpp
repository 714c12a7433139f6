// The T-FDPA block of emu_dot.hpp in double precision, for processors whose fast arithmetic is floating
// point (the GPU's fp64 pipe): the same bits as block(), with the exact integer sum replaced by an
// exact double sum.
//
// Why it is exact. Operands are decoded once into doubles (every format of a block's operands has at
// most 24 significand bits, so a value and a product of two are exact in 53). A term of block() is the
// product (or the addend) truncated to a multiple of g = 2^(emax - F), toward zero or toward -inf; here
//   t = (p + Ms) - Ms,  the first sum rounded toward zero, Ms = +-1.5 * 2^(emax - F + 52)
// (truncation toward zero: Ms of p's sign, so that the sum's magnitude is |p| + |Ms|; toward -inf:
// Ms positive, so that the sum is positive and rounding it toward zero rounds it down). Every term has
// |p| < 2^(emax + 2) <= 2^(emax - F + 51) (F <= 48), so p + Ms stays in the binade of Ms, whose last
// place is g: the rounding drops exactly the bits of p below g, toward zero (or down), and subtracting
// Ms back is exact. The terms are multiples of g with |sum| <= (L + 1) * 2^(emax + 2), which needs
// block_sum_bits(L, F) <= 53 bits above g: their double sum is exact too. The exact sum divided by g
// is the integer block() sums, and the same round_to gives the block's result.
//
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
// aligns by (Value::exp; 0 for a zero, which never aligns). Specials have no WideOperand.
struct WideOperand {
  double v;
  int exp;
  bool zero;
};

// 2^e for a normal double exponent (-1022 <= e <= 1023).
MMAEMU_HD double pow2(int e) { return f64_from_bits(static_cast<uint64_t>(e + 1023) << 52); }

// x + y rounded toward zero. The device has it as an instruction; the host computes the nearest sum
// and its exact error (TwoSum) and steps back one place where the nearest overshot.
MMAEMU_HD double add_toward_zero(double x, double y) {
#if defined(__CUDA_ARCH__)
  return __dadd_rz(x, y);
#else
  const double s = x + y, yy = s - x, err = (x - (s - yy)) + (y - yy);
  return err != 0 && (err < 0) != (s < 0) ? std::nextafter(s, 0.0) : s;
#endif
}
MMAEMU_HD bool sign_of(double x) {
#if defined(__CUDA_ARCH__)
  return signbit(x);
#else
  return std::signbit(x);
#endif
}

// Why an instruction cannot take this path (nullptr: it can).
MMAEMU_HD const char* wide_declines(const OpParams& p) {
  if (p.lowered) return "lowered instructions run as their lowering";
  if (p.instr.scale.present) return "block-scaled instructions";
  const BlockParams& bp = p.instr.block;
  if (bp.F > 48 || block_sum_bits(bp.L, bp.F) > 53) return "a block sum wider than a double's 53 bits";
  return nullptr;
}

// The operand as blocks read it; false for NaN and Inf.
MMAEMU_HD bool wide_operand(const FmtParams& f, uint32_t bits, const BlockParams& bp, WideOperand& out) {
  const Value x = read_operand(f, bits, bp);
  if (x.cls == Cls::nan || x.cls == Cls::inf) return false;
  if (x.cls == Cls::zero) {
    out = {x.neg ? -0.0 : 0.0, 0, true};
    return true;
  }
  const double mag = static_cast<double>(x.sig) * pow2(x.exp - f.man_bits);
  out = {x.neg ? -mag : mag, x.exp, false};
  return true;
}

// block()'s term: v truncated to a multiple of 2^g_exp, as add_term truncates it.
MMAEMU_HD double truncated_term(double v, int g_exp, const BlockParams& bp) {
  const double m = 1.5 * pow2(g_exp + 52);
  if (bp.floor_truncation) return add_toward_zero(v, m) - m;  // v + m > 0: toward zero is down
  const double ms = sign_of(v) ? -m : m;
  return add_toward_zero(v, ms) - ms;
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
MMAEMU_HD uint32_t wide_result(const BlockParams& bp, int emax, double sum) {
  const bool fp32_range = bp.result.id == Fmt::fp32 || bp.result.id == Fmt::e8m13;
  if (fp32_range && !bp.round_nearest && (sum < 0 ? -sum : sum) < pow2(128)) {
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
  BlockScan scan{bp};
  scan.emax = emax;
  scan.all_zero = false;
  return block_result(scan, static_cast<int64_t>(sum * pow2(bp.F - emax)));
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
  // Pass 2: the exact sum of the truncated terms, in units of 2^g_exp.
  const int g_exp = scan.emax - bp.F;
  double sum = 0;
  for (int i = start; i < start + n; ++i) {
    const WideOperand *a, *b;
    load(i, a, b);
    if (!a->zero && !b->zero) sum += truncated_term(a->v * b->v, g_exp, bp);
  }
  if (c.cls != Cls::zero) {
    const double cv = static_cast<double>(c.sig) * pow2(c.exp - fc.man_bits);
    sum += truncated_term(c.neg ? -cv : cv, g_exp, bp);
  }
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
