// The T-FDPA block and its chaining along K: the arithmetic of the oracle.
// Scalar and exact (64-bit integer sums), with no allocation per element.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "mmaemu/reference/model.hpp"
#include "mmaemu/reference/fma_chain.hpp"

namespace mmaemu::ref {
namespace {

struct Operand {
  FormatId fmt;
  Decoded v;
};

// tf32 operands arrive as fp32 patterns; the hardware reads them by truncation (the decoder ignores
// the 13 low bits) or, on some parts, by rounding to nearest first.
Decoded read_operand(FormatId f, uint32_t bits, const BlockModel& bm) {
  if (f == FormatId::tf32 && bm.tf32_input == Rounding::nearest_even)
    bits = convert(FormatId::fp32, bits, FormatId::tf32, Rounding::nearest_even);
  return decode(f, bits);
}

// Adds one aligned term to the sum: `sig` * 2^(exp - frac_bits), truncated to a multiple of
// 2^(emax - F) as the block's Truncation says.
// The sum is 128 bits wide so that the exact models (F = 96) fit next to the truncating ones.
inline void accumulate(__int128& sum, bool neg, uint64_t sig, int exp, int frac_bits, int emax,
                       const BlockModel& bm) {
  const int shift = exp - frac_bits - emax + bm.frac_bits;
  unsigned __int128 t;
  bool inexact = false;
  if (shift >= 0) {
    t = static_cast<unsigned __int128>(sig) << shift;
  } else if (-shift >= 64) {
    t = 0;
    inexact = sig != 0;
  } else {
    t = sig >> -shift;
    inexact = (t << -shift) != sig;
  }
  if (neg && inexact && bm.truncation == Truncation::floor) ++t;  // floor: toward -inf
  sum += neg ? -static_cast<__int128>(t) : static_cast<__int128>(t);
}

// The block's exact sum, in units of 2^(emax - F), rounded once to bm.block_result.
uint32_t round_block_sum(const BlockModel& bm, __int128 sum, int emax) {
  const FormatId out = bm.block_result;
  const bool neg = sum < 0;
  unsigned __int128 mag = neg ? -static_cast<unsigned __int128>(sum) : static_cast<unsigned __int128>(sum);
  const uint32_t r = round_to_format(out, neg, mag, emax - bm.frac_bits, bm.rounding, bm.rz_overflow_to_inf);
  // A non-zero sum that rounds to zero comes out as +0, whatever its sign (H200 recordings, fp16
  // accumulation: tiny negative sums give 0x0000, not 0x8000).
  return r == zero_bits(out, true) ? zero_bits(out, false) : r;
}

// A block's alignment exponent: the largest exponent of its terms (products' ea+eb, c's exponent).
// Zero terms take the profile's fixed exponent, when it has one. When every term is zero the block is
// a zero: negative only when every term is -0, and never where the profile says zero results are +0.
struct Alignment {
  const BlockModel& bm;
  int emax = INT32_MIN;
  bool all_zero = true, all_neg_zero = true;
  void zero_term(bool neg) {
    if (bm.zero_product_exp != INT_MIN) emax = std::max(emax, bm.zero_product_exp);
    all_neg_zero &= neg;
  }
  void term(int exp) {
    all_zero = false;
    emax = std::max(emax, exp);
  }
  uint32_t zero_result() const { return zero_bits(bm.block_result, all_neg_zero && !bm.zero_result_positive); }
};

// The finite part of a block: c (when given) + sum of n products, aligned to the largest exponent,
// truncated to F fraction bits, summed exactly, rounded once to bm.block_result.
uint32_t fused_sum(const BlockModel& bm, const Decoded* da, const Decoded* db, int n, int product_frac_bits,
                   const Decoded* c, int c_frac_bits) {
  Alignment al{bm};
  for (int i = 0; i < n; ++i) {
    if (da[i].cls == ValueClass::zero || db[i].cls == ValueClass::zero)
      al.zero_term(da[i].neg != db[i].neg);
    else
      al.term(da[i].exp + db[i].exp);
  }
  if (c && c->cls == ValueClass::zero)
    al.zero_term(c->neg);
  else if (c)
    al.term(c->exp);
  if (al.all_zero) return al.zero_result();
  const int emax = al.emax;

  __int128 sum = 0;
  for (int i = 0; i < n; ++i) {
    if (da[i].cls == ValueClass::zero || db[i].cls == ValueClass::zero) continue;
    accumulate(sum, da[i].neg != db[i].neg, uint64_t{da[i].sig} * db[i].sig, da[i].exp + db[i].exp,
               product_frac_bits, emax, bm);
  }
  if (c && c->cls != ValueClass::zero) accumulate(sum, c->neg, c->sig, c->exp, c_frac_bits, emax, bm);

  return round_block_sum(bm, sum, emax);
}

// x + y rounded once, as an IEEE addition (FADD / HADD2): specials as IEEE says, NaN canonical,
// an exact cancellation +0.
uint32_t ieee_add(FormatId out, FormatId fx, uint32_t x_bits, FormatId fy, uint32_t y_bits, Rounding r) {
  const Decoded x = decode(fx, x_bits), y = decode(fy, y_bits);
  if (x.cls == ValueClass::nan || y.cls == ValueClass::nan) return canonical_nan(out);
  if (x.cls == ValueClass::inf || y.cls == ValueClass::inf) {
    if (x.cls == ValueClass::inf && y.cls == ValueClass::inf && x.neg != y.neg) return canonical_nan(out);
    return infinity_bits(out, x.cls == ValueClass::inf ? x.neg : y.neg);
  }
  if (x.cls == ValueClass::zero && y.cls == ValueClass::zero) return zero_bits(out, x.neg && y.neg);
  if (y.cls == ValueClass::zero) return convert(fx, x_bits, out, r);
  if (x.cls == ValueClass::zero) return convert(fy, y_bits, out, r);
  int lx = x.exp - spec(fx).man_bits, ly = y.exp - spec(fy).man_bits;
  uint64_t sx = x.sig, sy = y.sig;
  // A term more than 64 bits below the other only decides rounding as a sticky bit: shrink it to one.
  if (lx > ly + 64) { ly = lx - 64; sy = 1; }
  if (ly > lx + 64) { lx = ly - 64; sx = 1; }
  const int lsb = std::min(lx, ly);
  const __int128 vx = static_cast<__int128>(sx) << (lx - lsb), vy = static_cast<__int128>(sy) << (ly - lsb);
  const __int128 s = (x.neg ? -vx : vx) + (y.neg ? -vy : vy);
  if (s == 0) return zero_bits(out, false);
  const bool neg = s < 0;
  return round_to_format(out, neg, static_cast<unsigned __int128>(neg ? -s : s), lsb, r);
}

// The special cases of a block, which decide its result before any arithmetic: a NaN anywhere, Inf*0
// and +Inf with -Inf give the canonical NaN; otherwise an Inf gives Inf of its sign.
struct Specials {
  bool nan = false, pos_inf = false, neg_inf = false;
  void addend(const Decoded& c) {
    if (c.cls == ValueClass::nan) nan = true;
    if (c.cls == ValueClass::inf) (c.neg ? neg_inf : pos_inf) = true;
  }
  // a*b; zero_factor: a further factor of the product (a scale) is zero.
  void product(const Decoded& a, const Decoded& b, bool zero_factor = false) {
    const bool ia = a.cls == ValueClass::inf, ib = b.cls == ValueClass::inf;
    if (a.cls == ValueClass::nan || b.cls == ValueClass::nan) nan = true;
    if (ia || ib) {
      if ((ia && b.cls == ValueClass::zero) || (ib && a.cls == ValueClass::zero) || zero_factor) nan = true;
      (a.neg != b.neg ? neg_inf : pos_inf) = true;
    }
  }
  std::optional<uint32_t> result(FormatId out) const {
    if (nan || (pos_inf && neg_inf)) return canonical_nan(out);
    if (pos_inf || neg_inf) return infinity_bits(out, neg_inf);
    return std::nullopt;
  }
};

// One block: c + sum_{i<n} a[i]*b[i], rounded to bm.block_result.
uint32_t block(const BlockModel& bm, FormatId fa, FormatId fb, const uint32_t* a, const uint32_t* b, int n,
               FormatId fc, uint32_t c_bits) {
  const Decoded c = decode(fc, c_bits);
  Decoded da[64], db[64];  // L <= 64 for every profile
  Specials sp;
  sp.addend(c);
  for (int i = 0; i < n; ++i) {
    da[i] = read_operand(fa, a[i], bm);
    db[i] = read_operand(fb, b[i], bm);
    sp.product(da[i], db[i]);
  }
  if (const auto special = sp.result(bm.block_result)) return *special;

  const int product_frac_bits = spec(fa).man_bits + spec(fb).man_bits;
  return fused_sum(bm, da, db, n, product_frac_bits, &c, spec(fc).man_bits);
}

// The scales of a block-scaled dot product: element k's are sa[k / block], sb[k / block].
struct Scales {
  FormatId format;
  int block;
  const uint32_t* sa;
  const uint32_t* sb;
  Decoded a(int k) const { return decode(format, sa[k / block]); }
  Decoded b(int k) const { return decode(format, sb[k / block]); }
};

// A group of a grouped block (BlockModel::group_k): its products' exact sum, as a signed integer in
// units of 2^unit_exp, unit_exp = (emin_a - m_a) + (emin_b - m_b), the weight of the smallest product.
struct GroupSum {
  __int128 sum = 0;
  bool any_nonzero = false, all_neg_zero = true;
};
GroupSum group_sum(FormatId fa, FormatId fb, const Decoded* da, const Decoded* db, int n) {
  GroupSum g;
  const int emin_a = spec(fa).emin(), emin_b = spec(fb).emin();
  for (int i = 0; i < n; ++i) {
    if (da[i].cls == ValueClass::zero || db[i].cls == ValueClass::zero) {
      g.all_neg_zero &= da[i].neg != db[i].neg;
      continue;
    }
    g.any_nonzero = true;
    const __int128 p = static_cast<__int128>(uint64_t{da[i].sig} * db[i].sig)
                       << ((da[i].exp - emin_a) + (db[i].exp - emin_b));
    g.sum += da[i].neg != db[i].neg ? -p : p;
  }
  return g;
}

// One block of a block-scaled instruction: c + sum of the n products of k in [k0, k0 + n), each
// multiplied by its scales, rounded to bm.block_result. Specials as in block(); a NaN scale makes
// the result NaN (an infinite product with a zero scale too).
uint32_t scaled_block(const BlockModel& bm, FormatId fa, FormatId fb, const uint32_t* a, const uint32_t* b, int n,
                      FormatId fc, uint32_t c_bits, const Scales& sc, int k0) {
  const FormatId out = bm.block_result;
  const Decoded c = decode(fc, c_bits);
  Decoded da[64], db[64], ds[64];  // ds: the product of the two scales' significands and exponents
  Specials sp;
  sp.addend(c);
  for (int i = 0; i < n; ++i) {
    da[i] = decode(fa, a[i]);
    db[i] = decode(fb, b[i]);
    const Decoded xa = sc.a(k0 + i), xb = sc.b(k0 + i);
    const bool zero_scale = xa.cls == ValueClass::zero || xb.cls == ValueClass::zero;
    ds[i] = {zero_scale ? ValueClass::zero : ValueClass::normal, false, static_cast<int16_t>(xa.exp + xb.exp),
             xa.sig * xb.sig};
    if (xa.cls == ValueClass::nan || xb.cls == ValueClass::nan) sp.nan = true;
    sp.product(da[i], db[i], zero_scale);
  }
  if (const auto special = sp.result(out)) return *special;
  const int scale_frac_bits = 2 * spec(sc.format).man_bits;

  if (bm.group_k == 0) {
    // Each product a*b*sa*sb is a term of its own: fold the scales into A's operand.
    for (int i = 0; i < n; ++i) {
      if (ds[i].cls == ValueClass::zero) da[i].cls = ValueClass::zero;
      da[i].exp = static_cast<int16_t>(da[i].exp + ds[i].exp);
      da[i].sig *= ds[i].sig;
    }
    return fused_sum(bm, da, db, n, spec(fa).man_bits + spec(fb).man_bits + scale_frac_bits, &c,
                     spec(fc).man_bits);
  }

  // Grouped: each group's exact sum times its scales is one term, aligned at the scales' exponent.
  const int unit_exp = spec(fa).emin() - spec(fa).man_bits + spec(fb).emin() - spec(fb).man_bits;
  struct Term {
    bool neg;
    uint64_t mag;
    int exp, frac_bits;
  };
  Term terms[64];
  int nterms = 0;
  Alignment al{bm};
  for (int g0 = 0; g0 < n; g0 += bm.group_k) {
    const int len = std::min(bm.group_k, n - g0);
    const GroupSum g = group_sum(fa, fb, da + g0, db + g0, len);
    // The group's scales: every k of a group shares its block (the block is a multiple of G).
    const Decoded& s = ds[g0];
    if (!g.any_nonzero || s.cls == ValueClass::zero) {
      al.zero_term(!g.any_nonzero && g.all_neg_zero);  // non-zero products times a zero scale: +0
      continue;
    }
    al.term(s.exp);
    const unsigned __int128 mag = (g.sum < 0 ? -static_cast<unsigned __int128>(g.sum) : g.sum) * s.sig;
    if (mag >> 62) throw std::logic_error("a grouped block's group sum exceeds 62 bits: not a catalogue format pair");
    // value = mag * 2^(unit_exp + s.exp - scale_frac_bits) = mag * 2^(exp - frac_bits) with exp = s.exp
    terms[nterms++] = {g.sum < 0, static_cast<uint64_t>(mag), s.exp, scale_frac_bits - unit_exp};
  }
  if (c.cls == ValueClass::zero)
    al.zero_term(c.neg);
  else
    al.term(c.exp);
  if (al.all_zero) return al.zero_result();
  const int emax = al.emax;
  __int128 sum = 0;
  for (int t = 0; t < nterms; ++t)
    accumulate(sum, terms[t].neg, terms[t].mag, terms[t].exp, terms[t].frac_bits, emax, bm);
  if (c.cls != ValueClass::zero) accumulate(sum, c.neg, c.sig, c.exp, spec(fc).man_bits, emax, bm);
  return round_block_sum(bm, sum, emax);
}

// The block result re-read in D's format (e8m13 is stored as an fp32 pattern, fp16 as fp16).
uint32_t to_output(FormatId acc_fmt, uint32_t acc, FormatId d) {
  if (acc_fmt == d || (acc_fmt == FormatId::e8m13 && d == FormatId::fp32)) return acc;
  return convert(acc_fmt, acc, d, Rounding::nearest_even);
}

// A lowered instruction: its parts run as another instruction, chained from +0, and c joins last.
uint32_t lowered_dot(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c, int k) {
  const Lowering& low = *m.lowering;
  const InstructionModel& via = *low.via_model;
  uint32_t pa[512], pb[512];  // K <= 512 for every instruction
  uint32_t acc = zero_bits(via.instr.c, false);
  for (int part = 0; part < low.parts; ++part) {
    int n = 0;
    for (int i = 0; i < k; ++i) {
      if ((i / low.run) % low.parts != part) continue;
      pa[n] = convert(m.instr.a, a[i], via.instr.a, Rounding::nearest_even);  // exact: FP8 fits fp16
      pb[n] = convert(m.instr.b, b[i], via.instr.b, Rounding::nearest_even);
      ++n;
    }
    acc = dot_k(via, pa, pb, acc, n);
  }
  return ieee_add(m.instr.d, via.instr.d, acc, m.instr.c, c, Rounding::nearest_even);
}

}  // namespace

uint32_t dot_k(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c, int k,
               const uint32_t* sa, const uint32_t* sb) {
  if (m.fma_chain) throw std::invalid_argument(m.instr.name + ": fp64 elements take two words; use mma() or gemm()");
  if (m.lowering) return lowered_dot(m, a, b, c, k);
  const BlockModel& bm = m.block;
  if (m.instr.scale && (!sa || !sb))
    throw std::invalid_argument(m.instr.name + " is block-scaled: it needs scale operands for A and B");
  // The block of the n elements from `start`, its addend `acc` in format fc.
  const auto block_at = [&](int start, int n, FormatId fc, uint32_t acc) {
    if (!m.instr.scale) return block(bm, m.instr.a, m.instr.b, a + start, b + start, n, fc, acc);
    return scaled_block(bm, m.instr.a, m.instr.b, a + start, b + start, n, fc, acc,
                        {m.instr.scale->format, m.instr.scale->block, sa, sb}, start);
  };
  FormatId acc_fmt = m.instr.c;
  uint32_t acc = c;
  for (int start = 0; start < k; start += bm.block_k) {
    const int n = std::min(bm.block_k, k - start);
    acc = block_at(start, n, acc_fmt, acc);
    acc_fmt = bm.block_result;
  }
  return to_output(acc_fmt, acc, m.instr.d);
}

uint32_t dot(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c, const uint32_t* sa,
             const uint32_t* sb) {
  return dot_k(m, a, b, c, m.instr.k, sa, sb);
}

size_t scale_count(const Instruction& in, size_t K) {
  if (!in.scale) throw std::invalid_argument(in.name + " takes no scale operands");
  const size_t block = static_cast<size_t>(in.scale->block);
  return (K + block - 1) / block;
}

uint32_t unit_scale_bits(FormatId f) { return round_to_format(f, false, 1, 0, Rounding::nearest_even); }

void mma(const InstructionModel& m, size_t tiles, const uint32_t* A, const uint32_t* B,
         const uint32_t* C, uint32_t* D, const uint32_t* SA, const uint32_t* SB) {
  if (m.fma_chain) return fma_chain_mma(m, tiles, A, B, C, D);
  const int M = m.instr.m, N = m.instr.n, K = m.instr.k;
  const int S = m.instr.scale ? static_cast<int>(scale_count(m.instr, static_cast<size_t>(K))) : 0;
  uint32_t column[512], scale_column[512];  // B's column n (and its scales), gathered contiguous
  for (size_t t = 0; t < tiles; ++t) {
    const uint32_t* At = A + t * M * K;
    const uint32_t* Bt = B + t * K * N;
    for (int n = 0; n < N; ++n) {
      for (int k = 0; k < K; ++k) column[k] = Bt[k * N + n];
      for (int j = 0; j < S; ++j) scale_column[j] = SB[(t * S + j) * N + n];
      for (int r = 0; r < M; ++r) {
        const size_t o = t * M * N + static_cast<size_t>(r) * N + n;
        D[o] = dot(m, At + static_cast<size_t>(r) * K, column, C[o], S ? SA + (t * M + r) * S : nullptr,
                   S ? scale_column : nullptr);
      }
    }
  }
}

size_t gemm_steps(const InstructionModel& m, size_t K) {
  const size_t k = static_cast<size_t>(m.instr.k);
  return (K + k - 1) / k;
}

const InstructionModel& chained_form(const InstructionModel& m) {
  if (m.instr.c == m.instr.d) return m;
  Instruction in = m.instr;
  in.c = in.d;
  return lookup(m.arch, spell(in));
}

void gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
          const uint32_t* C, uint32_t* D, uint32_t* trace, const uint32_t* SA, const uint32_t* SB) {
  if (m.fma_chain) return fma_chain_gemm(m, M, N, K, A, B, C, D, trace);
  const size_t k = static_cast<size_t>(m.instr.k), steps = gemm_steps(m, K);
  const size_t S = m.instr.scale ? scale_count(m.instr, K) : 0;  // scales per row of A over all of K
  const size_t block = m.instr.scale ? static_cast<size_t>(m.instr.scale->block) : 1;
  const uint32_t unit = m.instr.scale ? unit_scale_bits(m.instr.scale->format) : 0;
  const InstructionModel& later = chained_form(m);
  uint32_t row[512], column[512], row_scales[512], column_scales[512];  // one step's, padded past K
  for (size_t r = 0; r < M; ++r) {
    for (size_t n = 0; n < N; ++n) {
      uint32_t acc = C[r * N + n];
      for (size_t step = 0; step < steps; ++step) {
        for (size_t i = 0; i < k; ++i) {
          const size_t kk = step * k + i;
          row[i] = kk < K ? A[r * K + kk] : 0u;  // +0 in every format
          column[i] = kk < K ? B[kk * N + n] : 0u;
        }
        for (size_t j = 0; S && j < k / block; ++j) {
          const size_t jj = step * (k / block) + j;
          row_scales[j] = jj < S ? SA[r * S + jj] : unit;
          column_scales[j] = jj < S ? SB[jj * N + n] : unit;
        }
        acc = dot(step == 0 ? m : later, row, column, acc, S ? row_scales : nullptr, S ? column_scales : nullptr);
        if (trace) trace[(r * N + n) * steps + step] = acc;
      }
      D[r * N + n] = acc;
    }
  }
}

}  // namespace mmaemu::ref
