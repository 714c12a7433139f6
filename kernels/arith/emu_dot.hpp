// The per-element arithmetic of every backend: one GEMM output D[m][n] = the instruction applied
// step by step along K (K padded with zeros to a multiple of the instruction's K), each step's D the
// next step's C, with the accumulator after every step optionally written out (the trace).
//
// __host__ __device__, scalar, no allocation and no tables in memory: the "host" backend runs this
// very code on the CPU, the GPU backends run it per thread. Operands are read through a loader,
//   load(i, a_bits, b_bits)   for the step's k = i (0 <= i < instr.k), zero bits past the end of K,
// so that a backend may feed it from global memory, shared memory or registers.
//
// Why 64-bit sums suffice (checked per profile by params_from_profile(): block_sum_bits(L, F) <= 62).
// In a block every term is aligned to 2^(emax - F), emax >= the exponent of every term:
//   a product sig_a*sig_b*2^(ea+eb - (ma+mb)), sig_a*sig_b < 2^(ma+mb+2), becomes
//   sig << (ea+eb - (ma+mb) - emax + F) <= sig << (F - (ma+mb)) < 2^(F+2);
//   the addend c, sig_c < 2^(mc+1), becomes < 2^(F+1).
// A right shift only drops bits; the floor rule adds at most 1 to a term < 2^(F+2), keeping it <= 2^(F+2).
// So |sum| <= (L+1) * 2^(F+2). The catalogue's worst case is L = 32, F = 25 (sm_120 FP8): 33 * 2^27
// < 2^33; Hopper (L = 16 or 32, F = 25 or 13) and every other profile are smaller. A profile with
// (L+1) * 2^(F+2) >= 2^62 is declined by every backend rather than computed wrongly.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/arith/formats.hpp"
#include "kernels/arith/hd.hpp"
#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::arith {

// Bits a block's exact sum needs (sign excluded): ceil(log2(L+1)) + F + 2.
MMAEMU_HD constexpr int block_sum_bits(int L, int F) {
  int bits = 0;
  while ((1 << bits) < L + 1) ++bits;
  return bits + F + 2;
}

// An operand as the block reads it: fp32 patterns given as tf32 are read by dropping the low 13 bits
// (decode ignores them) or, on some parts, by rounding to nearest first.
MMAEMU_HD Value read_operand(const FmtParams& f, uint32_t bits, const BlockParams& bp) {
  if (f.id == Fmt::tf32 && bp.tf32_input_nearest) bits = convert(fmt_params(Fmt::fp32), bits, f, true);
  return decode(f, bits);
}

// Adds sig * 2^(exp - frac_bits), truncated to a multiple of 2^(emax - F), to the block's sum.
MMAEMU_HD void add_term(int64_t& sum, bool neg, uint64_t sig, int exp, int frac_bits, int emax,
                        const BlockParams& bp) {
  const int shift = exp - frac_bits - emax + bp.F;  // <= F - frac_bits: see the bound above
  uint64_t t;
  bool inexact;
  if (shift >= 0) {
    t = sig << shift;
    inexact = false;
  } else if (shift <= -64) {
    t = 0;
    inexact = true;  // sig != 0: only non-zero terms are added
  } else {
    t = sig >> -shift;
    inexact = (t << -shift) != sig;
  }
  if (neg && inexact && bp.floor_truncation) ++t;  // two's-complement truncation: toward -inf
  sum += neg ? -static_cast<int64_t>(t) : static_cast<int64_t>(t);
}

MMAEMU_HD bool is_zero_product(const Value& a, const Value& b) { return a.cls == Cls::zero || b.cls == Cls::zero; }

// What the first pass over a block gathers: the specials (NaN, Inf*0 and Inf-Inf give the canonical
// NaN, other Infs Inf) and the alignment exponent emax, zero terms at the profile's fixed exponent.
struct BlockScan {
  const BlockParams& bp;
  bool nan = false, pos_inf = false, neg_inf = false;
  int emax = INT32_MIN;
  bool all_zero = true, all_neg_zero = true;

  MMAEMU_HD void zero_term(bool neg) {
    if (bp.has_zero_product_exp) emax = imax(emax, bp.zero_product_exp);
    all_neg_zero = all_neg_zero && neg;
  }
  MMAEMU_HD void term(int exp) {
    all_zero = false;
    emax = imax(emax, exp);
  }
  // The addend's specials and term.
  MMAEMU_HD void addend(const Value& c) {
    if (c.cls == Cls::nan) nan = true;
    if (c.cls == Cls::inf) (c.neg ? neg_inf : pos_inf) = true;
    if (c.cls == Cls::zero) zero_term(c.neg); else term(c.exp);
  }
  // A product's specials; zero_factor: a further factor of it (a scale) is zero.
  MMAEMU_HD void product_specials(const Value& a, const Value& b, bool zero_factor = false) {
    if (a.cls == Cls::nan || b.cls == Cls::nan) nan = true;
    const bool ia = a.cls == Cls::inf, ib = b.cls == Cls::inf;
    if (ia || ib) {
      if ((ia && b.cls == Cls::zero) || (ib && a.cls == Cls::zero) || zero_factor) nan = true;
      if (a.neg != b.neg) neg_inf = true; else pos_inf = true;
    }
  }
  MMAEMU_HD bool special() const { return nan || pos_inf || neg_inf; }
  MMAEMU_HD uint32_t special_result(const FmtParams& out) const {
    if (nan || (pos_inf && neg_inf)) return canonical_nan(out);
    return infinity_bits(out, neg_inf);
  }
};

// A block's result from its scan and the exact sum of its truncated terms (units of 2^(emax - F)):
// +-0 when every term was zero (-0 only when all were -0, and never where the profile's zero results
// are +0), else the sum rounded once, a non-zero sum that rounds to zero giving +0 whatever its sign.
MMAEMU_HD uint32_t block_result(const BlockScan& scan, int64_t sum) {
  const BlockParams& bp = scan.bp;
  const FmtParams& out = bp.result;
  const bool all_zero = scan.all_zero, all_neg_zero = scan.all_neg_zero;
  const int emax = scan.emax;
  if (all_zero) return zero_bits(out, all_neg_zero && !bp.zero_result_positive);
  const bool neg = sum < 0;
  const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
  const uint32_t r = round_to(out, neg, mag, emax - bp.F, bp.round_nearest, bp.rz_overflow_to_inf);
  return r == zero_bits(out, true) ? zero_bits(out, false) : r;
}

// One block: c + sum of the products of elements [start, start + n), as one T-FDPA rounded to
// bp.result. Specials first; then the finite sum.
template <class Load>
MMAEMU_HD uint32_t block(const BlockParams& bp, const FmtParams& fa, const FmtParams& fb, const Load& load,
                         int start, int n, const FmtParams& fc, uint32_t c_bits) {
  const Value c = decode(fc, c_bits);
  // Pass 1: specials, and the alignment exponent emax.
  BlockScan scan{bp};
  for (int i = start; i < start + n; ++i) {
    uint32_t ab, bb;
    load(i, ab, bb);
    const Value a = read_operand(fa, ab, bp), b = read_operand(fb, bb, bp);
    scan.product_specials(a, b);
    if (is_zero_product(a, b))
      scan.zero_term(a.neg != b.neg);
    else
      scan.term(a.exp + b.exp);
  }
  scan.addend(c);
  if (scan.special()) return scan.special_result(bp.result);
  if (scan.all_zero) return block_result(scan, 0);

  // Pass 2: the exact sum of the truncated terms.
  const int pf = fa.man_bits + fb.man_bits;
  int64_t sum = 0;
  for (int i = start; i < start + n; ++i) {
    uint32_t ab, bb;
    load(i, ab, bb);
    const Value a = read_operand(fa, ab, bp), b = read_operand(fb, bb, bp);
    if (is_zero_product(a, b)) continue;
    add_term(sum, a.neg != b.neg, uint64_t{a.sig} * b.sig, a.exp + b.exp, pf, scan.emax, bp);
  }
  if (c.cls != Cls::zero) add_term(sum, c.neg, c.sig, c.exp, fc.man_bits, scan.emax, bp);
  return block_result(scan, sum);
}

// --- block-scaled instructions ---------------------------------------------------------------------
// A scale pattern decoded like an operand (value = sig * 2^(exp - man bits)): ue8m0 is 2^(bits - 127)
// with no zero and 0xFF NaN; ue4m3 is e4m3 without its sign bit (7 bits), 0x7F NaN, 0 zero.
MMAEMU_HD int scale_man_bits(const ScaleParams& sp) { return sp.ue4m3 ? 3 : 0; }
// The scale 1.0: what the padding of K past the last scale takes.
MMAEMU_HD uint32_t unit_scale(const ScaleParams& sp) { return sp.ue4m3 ? 0x38u : 127u; }
MMAEMU_HD Value decode_scale(const ScaleParams& sp, uint32_t bits) {
  if (!sp.ue4m3) {
    if (bits == 0xFFu) return {Cls::nan, false, 0, 0};
    return {Cls::normal, false, static_cast<int>(bits) - 127, 1u};
  }
  bits &= 0x7Fu;
  if (bits == 0x7Fu) return {Cls::nan, false, 0, 0};
  const uint32_t bexp = bits >> 3, frac = bits & 7u;
  if (bexp == 0) return {frac ? Cls::subnormal : Cls::zero, false, -6, frac};
  return {Cls::normal, false, static_cast<int>(bexp) - 7, frac | 8u};
}

// Detects a loader that also gives scales: load.scales(i, sa_bits, sb_bits) for the step's k = i.
template <class L, class = void>
struct loads_scales {
  static constexpr bool value = false;
};
template <class L>
struct loads_scales<L, decltype(void(&L::scales))> {
  static constexpr bool value = true;
};

// One block of a block-scaled instruction, k in [start, start + n): as block(), each product also
// multiplied by its two scales. group = 0: every product a*b*sa*sb is a term aligned at its own
// exponent. group = G: the products of each G consecutive k are summed exactly (an integer in units of
// the smallest product, 2^(emin_a - m_a + emin_b - m_b)), and the group times its scales is a term
// aligned at the scales' exponent; a group whose products are all zero, or whose scale is zero, is a
// zero term (+0 when its products are not all zero). A NaN scale gives NaN, as does Inf times a zero
// scale.
template <class Load>
MMAEMU_HD uint32_t scaled_block(const InstrParams& ip, const Load& load, int start, int n, const FmtParams& fc,
                                uint32_t c_bits) {
  const BlockParams& bp = ip.block;
  const ScaleParams& sp = ip.scale;
  const FmtParams &fa = ip.a, &fb = ip.b;
  const Value c = decode(fc, c_bits);
  BlockScan scan{bp};
  // The grouped form's terms (L / G of them: at most 8; params_from_profile checks it).
  constexpr int kMaxGroups = 8;
  int64_t group_sum[kMaxGroups] = {};
  int group_exp[kMaxGroups] = {};
  uint32_t group_scale_sig[kMaxGroups] = {};
  bool group_live[kMaxGroups] = {};
  // Pass 1: specials, group sums, and the alignment exponent.
  for (int g0 = start, g = 0; g0 < start + n; g0 += sp.group ? sp.group : n, ++g) {
    const int len = sp.group ? imin(sp.group, start + n - g0) : n;
    Value xa{}, xb{};  // the scales: the group's, or (group = 0) each k's own
    const auto read_scales = [&](int i) {
      uint32_t sab, sbb;
      load.scales(i, sab, sbb);
      xa = decode_scale(sp, sab);
      xb = decode_scale(sp, sbb);
      if (xa.cls == Cls::nan || xb.cls == Cls::nan) scan.nan = true;
    };
    if (sp.group) {  // every k of a group shares its scales (the scale block is a multiple of G)
      read_scales(g0);
      group_exp[g] = xa.exp + xb.exp;
      group_scale_sig[g] = xa.sig * xb.sig;
    }
    bool any_nonzero = false, group_neg_zero = true;
    for (int i = g0; i < g0 + len; ++i) {
      uint32_t ab, bb;
      load(i, ab, bb);
      if (!sp.group) read_scales(i);
      const Value a = decode(fa, ab), b = decode(fb, bb);
      const bool zero_scale = xa.cls == Cls::zero || xb.cls == Cls::zero, zero = is_zero_product(a, b);
      scan.product_specials(a, b, zero_scale);
      if (!sp.group) {
        if (zero || zero_scale)
          scan.zero_term(a.neg != b.neg);
        else
          scan.term(a.exp + b.exp + xa.exp + xb.exp);
      } else if (zero) {
        group_neg_zero = group_neg_zero && a.neg != b.neg;
      } else {
        any_nonzero = true;
        const int64_t p = static_cast<int64_t>(uint64_t{a.sig} * b.sig) << ((a.exp - emin(fa)) + (b.exp - emin(fb)));
        group_sum[g] += a.neg != b.neg ? -p : p;
      }
    }
    if (!sp.group) continue;
    group_live[g] = any_nonzero && xa.cls != Cls::zero && xb.cls != Cls::zero;
    if (group_live[g])
      scan.term(group_exp[g]);
    else
      scan.zero_term(!any_nonzero && group_neg_zero);  // non-zero products times a zero scale: +0
  }
  scan.addend(c);
  if (scan.special()) return scan.special_result(bp.result);
  if (scan.all_zero) return block_result(scan, 0);

  // Pass 2: the exact sum of the truncated terms.
  const int scale_frac_bits = 2 * scale_man_bits(sp);
  int64_t sum = 0;
  if (!sp.group) {
    for (int i = start; i < start + n; ++i) {
      uint32_t ab, bb, sab, sbb;
      load(i, ab, bb);
      load.scales(i, sab, sbb);
      const Value a = decode(fa, ab), b = decode(fb, bb);
      const Value xa = decode_scale(sp, sab), xb = decode_scale(sp, sbb);
      if (is_zero_product(a, b) || xa.cls == Cls::zero || xb.cls == Cls::zero) continue;
      add_term(sum, a.neg != b.neg, uint64_t{a.sig} * b.sig * xa.sig * xb.sig, a.exp + b.exp + xa.exp + xb.exp,
               fa.man_bits + fb.man_bits + scale_frac_bits, scan.emax, bp);
    }
  } else {
    // A group's value: |sum| * scale sig * 2^(unit + exp - scale_frac_bits), unit the smallest product's weight.
    const int unit = emin(fa) - fa.man_bits + emin(fb) - fb.man_bits;
    for (int g = 0; g * sp.group < n; ++g) {
      if (!group_live[g]) continue;
      const bool neg = group_sum[g] < 0;
      const uint64_t mag =
          (neg ? uint64_t{0} - static_cast<uint64_t>(group_sum[g]) : static_cast<uint64_t>(group_sum[g])) *
          group_scale_sig[g];
      add_term(sum, neg, mag, group_exp[g], scale_frac_bits - unit, scan.emax, bp);
    }
  }
  if (c.cls != Cls::zero) add_term(sum, c.neg, c.sig, c.exp, fc.man_bits, scan.emax, bp);
  return block_result(scan, sum);
}

// The block result as D's format: e8m13 is already an fp32 pattern; otherwise re-rounded (RNE).
MMAEMU_HD uint32_t to_output(const FmtParams& acc, uint32_t bits, const FmtParams& d) {
  if (acc.id == d.id || (acc.id == Fmt::e8m13 && d.id == Fmt::fp32)) return bits;
  return convert(acc, bits, d, true);
}

// One block of a chain: scaled or not. A loader without scales is never given a block-scaled instruction.
template <class Load>
MMAEMU_HD uint32_t chained_block(const InstrParams& ip, const Load& load, int start, int n, const FmtParams& fc,
                                 uint32_t acc) {
  if constexpr (loads_scales<Load>::value)
    if (ip.scale.present) return scaled_block(ip, load, start, n, fc, acc);
  return block(ip.block, ip.a, ip.b, load, start, n, fc, acc);
}

// An instruction that is not lowered over n elements: blocks of L chained from c (in format fc), the
// last one short.
template <class Load>
MMAEMU_HD uint32_t block_chain(const InstrParams& ip, const Load& load, int n, uint32_t c, const FmtParams& fc) {
  const FmtParams* acc_fmt = &fc;
  uint32_t acc = c;
  for (int start = 0; start < n; start += ip.block.L) {
    acc = chained_block(ip, load, start, imin(ip.block.L, n - start), *acc_fmt, acc);
    acc_fmt = &ip.block.result;
  }
  return to_output(*acc_fmt, acc, ip.d);
}

// x + y rounded once to nearest even to `out`, as an IEEE addition (FADD / HADD2): NaN canonical,
// inf - inf NaN, +0 for an exact cancellation, -0 only for -0 + -0.
// Exact in 64 bits: significands have at most 24 bits. When the exponents of the last places differ by
// more than 38, the lower term is cut to the window and its lost bits jammed into its last bit (a
// sticky bit): it is then < 2^-14 of the upper term, so the sum keeps within one binade of the upper
// term and the result's rounding point (24 bits down at most) lies >= 2 bits above the window's last
// bit; the jammed and the exact sum fall in the same open interval between multiples of two window
// units, so they round alike.
MMAEMU_HD uint32_t ieee_add(const FmtParams& out, const FmtParams& fx, uint32_t x_bits, const FmtParams& fy,
                            uint32_t y_bits) {
  const Value x = decode(fx, x_bits), y = decode(fy, y_bits);
  if (x.cls == Cls::nan || y.cls == Cls::nan) return canonical_nan(out);
  if (x.cls == Cls::inf || y.cls == Cls::inf) {
    if (x.cls == Cls::inf && y.cls == Cls::inf && x.neg != y.neg) return canonical_nan(out);
    return infinity_bits(out, x.cls == Cls::inf ? x.neg : y.neg);
  }
  if (x.cls == Cls::zero && y.cls == Cls::zero) return zero_bits(out, x.neg && y.neg);
  if (y.cls == Cls::zero) return convert(fx, x_bits, out, true);
  if (x.cls == Cls::zero) return convert(fy, y_bits, out, true);
  // u: the term whose last place is higher; v: the other.
  const int lx = x.exp - fx.man_bits, ly = y.exp - fy.man_bits;
  const bool x_upper = lx >= ly;
  const Value& u = x_upper ? x : y;
  const Value& v = x_upper ? y : x;
  const int lu = x_upper ? lx : ly, lv = x_upper ? ly : lx;
  constexpr int kWindow = 38;
  const int lsb = imax(lv, lu - kWindow);
  const uint64_t su = uint64_t{u.sig} << (lu - lsb);  // < 2^(24 + 38)
  uint64_t sv;
  if (lv >= lsb) {
    sv = uint64_t{v.sig} << (lv - lsb);
  } else {
    const int cut = lsb - lv;
    sv = cut >= 64 ? 0 : uint64_t{v.sig} >> cut;
    if (cut >= 64 || (sv << cut) != v.sig) sv |= 1;  // sticky
  }
  const int64_t s = (u.neg ? -static_cast<int64_t>(su) : static_cast<int64_t>(su)) +
                    (v.neg ? -static_cast<int64_t>(sv) : static_cast<int64_t>(sv));
  if (s == 0) return zero_bits(out, false);
  const bool neg = s < 0;
  const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(s) : static_cast<uint64_t>(s);
  return round_to(out, neg, mag, lsb, true, false);
}

// Number of the k < K with (k / run) % parts == part.
MMAEMU_HD int part_size(int K, int parts, int run, int part) {
  const int period = parts * run, rem = K % period - part * run;
  return (K / period) * run + imax(0, imin(run, rem));
}

// A part of a lowered instruction: its j-th element is the j-th k of the part, converted (exactly) to
// the via instruction's formats.
template <class Load>
struct PartLoad {
  const OpParams& p;
  const Load& load;
  int part;
  MMAEMU_HD void operator()(int j, uint32_t& a, uint32_t& b) const {
    const int k = ((j / p.run) * p.parts + part) * p.run + j % p.run;
    uint32_t ab, bb;
    load(k, ab, bb);
    a = convert(p.instr.a, ab, p.via.a, true);
    b = convert(p.instr.b, bb, p.via.b, true);
  }
};

// One instruction step: c + the step's products, as the emulated GPU computes it; D's raw bits.
// c is in the instruction's C format, or in D's for a GEMM's steps after the first (`chained`): the two
// differ only for Volta's m8n8k4 with an fp16 C and an fp32 D (ref::gemm).
template <class Load>
MMAEMU_HD uint32_t emu_step(const OpParams& p, const Load& load, uint32_t c, bool chained = false) {
  const FmtParams& fc = chained ? p.instr.d : p.instr.c;
  if (!p.lowered) return block_chain(p.instr, load, p.instr.k, c, fc);
  uint32_t acc = zero_bits(p.via.c, false);
  for (int part = 0; part < p.parts; ++part) {
    const PartLoad<Load> part_load{p, load, part};
    acc = block_chain(p.via, part_load, part_size(p.instr.k, p.parts, p.run, part), acc, p.via.c);
  }
  return ieee_add(p.instr.d, p.via.d, acc, fc, c);
}

// Loads a step's elements from strided raw bits, zero past the end of K; for block-scaled instructions
// also their scales: A's row's sa[j] (consecutive) and B's column's sb[j * sb_stride] for the k in
// [j * block, (j + 1) * block), the scale 1.0 past the last one (the padding of K).
struct StridedLoad {
  const uint32_t* a;
  size_t a_stride;
  const uint32_t* b;
  size_t b_stride;
  int valid;  // elements of this step inside K
  const uint32_t* sa = nullptr;
  const uint32_t* sb = nullptr;
  size_t sb_stride = 1;
  size_t first_k = 0;       // the step's first k
  size_t scale_count = 0;   // scales per row
  ScaleParams sp{};
  MMAEMU_HD void operator()(int i, uint32_t& x, uint32_t& y) const {
    if (i < valid) {
      x = a[static_cast<size_t>(i) * a_stride];
      y = b[static_cast<size_t>(i) * b_stride];
    } else {
      x = 0;  // +0 in every format
      y = 0;
    }
  }
  MMAEMU_HD void scales(int i, uint32_t& x, uint32_t& y) const {
    const size_t j = (first_k + static_cast<size_t>(i)) / static_cast<size_t>(sp.block);
    if (j < scale_count) {
      x = sa[j];
      y = sb[j * sb_stride];
    } else {
      x = y = unit_scale(sp);
    }
  }
};

// One GEMM output: a_row[kk * a_stride] and b_col[kk * b_stride] for kk < K, addend c. When trace is
// given, trace[s * trace_stride] receives the accumulator after step s (ref::gemm_steps(model, K) steps,
// the count the callers size the trace by: the steps are counted in one place, the reference).
// Block-scaled instructions also take the row's scales sa[j] and the column's sb[j * sb_stride],
// j < ceil(K / block).
MMAEMU_HD uint32_t emu_gemm_element(const OpParams& p, const uint32_t* a_row, size_t a_stride,
                                    const uint32_t* b_col, size_t b_stride, size_t K, uint32_t c,
                                    uint32_t* trace = nullptr, size_t trace_stride = 1,
                                    const uint32_t* sa = nullptr, const uint32_t* sb = nullptr,
                                    size_t sb_stride = 1) {
  const size_t k = static_cast<size_t>(p.instr.k);
  const ScaleParams& sp = p.instr.scale;
  const size_t scale_count = sp.present ? (K + static_cast<size_t>(sp.block) - 1) / static_cast<size_t>(sp.block) : 0;
  uint32_t acc = c;
  for (size_t s = 0, base = 0; base < K; ++s, base += k) {
    const StridedLoad load{a_row + base * a_stride, a_stride, b_col + base * b_stride, b_stride,
                           static_cast<int>(K - base < k ? K - base : k), sa, sb, sb_stride, base, scale_count, sp};
    acc = emu_step(p, load, acc, s > 0);
    if (trace) trace[s * trace_stride] = acc;
  }
  return acc;
}

}  // namespace mmaemu::kernels::arith
