// The T-FDPA block and its chaining along K: the arithmetic of the oracle.
// Scalar and exact (64-bit integer sums), with no allocation per element.
#include <algorithm>
#include <cstdlib>

#include "mmaemu/reference/model.hpp"

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

// The finite part of a block: c (when given) + sum of n products, aligned to the largest exponent,
// truncated to F fraction bits, summed exactly, rounded once to bm.block_result.
uint32_t fused_sum(const BlockModel& bm, const Decoded* da, const Decoded* db, int n, int product_frac_bits,
                   const Decoded* c, int c_frac_bits) {
  const FormatId out = bm.block_result;
  // Alignment exponent: the largest of the products' ea+eb and c's exponent. Zero terms take the
  // profile's fixed exponent, when it has one.
  int emax = INT32_MIN;
  bool all_zero = true, all_neg_zero = true;
  auto zero_term = [&](bool neg) {
    if (bm.zero_product_exp != INT_MIN) emax = std::max(emax, bm.zero_product_exp);
    all_neg_zero &= neg;
  };
  for (int i = 0; i < n; ++i) {
    if (da[i].cls == ValueClass::zero || db[i].cls == ValueClass::zero) {
      zero_term(da[i].neg != db[i].neg);
    } else {
      all_zero = false;
      emax = std::max(emax, da[i].exp + db[i].exp);
    }
  }
  if (c && c->cls == ValueClass::zero) {
    zero_term(c->neg);
  } else if (c) {
    all_zero = false;
    emax = std::max(emax, static_cast<int>(c->exp));
  }
  if (all_zero) return zero_bits(out, all_neg_zero);

  __int128 sum = 0;
  for (int i = 0; i < n; ++i) {
    if (da[i].cls == ValueClass::zero || db[i].cls == ValueClass::zero) continue;
    accumulate(sum, da[i].neg != db[i].neg, uint64_t{da[i].sig} * db[i].sig, da[i].exp + db[i].exp,
               product_frac_bits, emax, bm);
  }
  if (c && c->cls != ValueClass::zero) accumulate(sum, c->neg, c->sig, c->exp, c_frac_bits, emax, bm);

  const bool neg = sum < 0;
  unsigned __int128 mag = neg ? -static_cast<unsigned __int128>(sum) : static_cast<unsigned __int128>(sum);
  const uint32_t r = round_to_format(out, neg, mag, emax - bm.frac_bits, bm.rounding, bm.rz_overflow_to_inf);
  // A non-zero sum that rounds to zero comes out as +0, whatever its sign (H200 recordings, fp16
  // accumulation: tiny negative sums give 0x0000, not 0x8000).
  return r == zero_bits(out, true) ? zero_bits(out, false) : r;
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

// One block: c + sum_{i<n} a[i]*b[i], rounded to bm.block_result.
uint32_t block(const BlockModel& bm, FormatId fa, FormatId fb, const uint32_t* a, const uint32_t* b, int n,
               FormatId fc, uint32_t c_bits) {
  const FormatId out = bm.block_result;
  const Decoded c = decode(fc, c_bits);
  Decoded da[64], db[64];  // L <= 64 for every profile
  bool nan = c.cls == ValueClass::nan, pos_inf = false, neg_inf = false;
  if (c.cls == ValueClass::inf) (c.neg ? neg_inf : pos_inf) = true;
  for (int i = 0; i < n; ++i) {
    da[i] = read_operand(fa, a[i], bm);
    db[i] = read_operand(fb, b[i], bm);
    const bool ia = da[i].cls == ValueClass::inf, ib = db[i].cls == ValueClass::inf;
    if (da[i].cls == ValueClass::nan || db[i].cls == ValueClass::nan) nan = true;
    if (ia || ib) {
      if ((ia && db[i].cls == ValueClass::zero) || (ib && da[i].cls == ValueClass::zero)) nan = true;
      (da[i].neg != db[i].neg ? neg_inf : pos_inf) = true;
    }
  }
  if (nan || (pos_inf && neg_inf)) return canonical_nan(out);
  if (pos_inf || neg_inf) return infinity_bits(out, neg_inf);

  const int product_frac_bits = spec(fa).man_bits + spec(fb).man_bits;
  return fused_sum(bm, da, db, n, product_frac_bits, &c, spec(fc).man_bits);
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

uint32_t dot_k(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c, int k) {
  if (m.lowering) return lowered_dot(m, a, b, c, k);
  const BlockModel& bm = m.block;
  FormatId acc_fmt = m.instr.c;
  uint32_t acc = c;
  for (int start = 0; start < k; start += bm.block_k) {
    const int n = std::min(bm.block_k, k - start);
    acc = block(bm, m.instr.a, m.instr.b, a + start, b + start, n, acc_fmt, acc);
    acc_fmt = bm.block_result;
  }
  return to_output(acc_fmt, acc, m.instr.d);
}

uint32_t dot(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c) {
  return dot_k(m, a, b, c, m.instr.k);
}

void mma(const InstructionModel& m, size_t tiles, const uint32_t* A, const uint32_t* B,
         const uint32_t* C, uint32_t* D) {
  const int M = m.instr.m, N = m.instr.n, K = m.instr.k;
  uint32_t column[512];  // B's column n, gathered contiguous (K <= 512 for every instruction)
  for (size_t t = 0; t < tiles; ++t) {
    const uint32_t* At = A + t * M * K;
    const uint32_t* Bt = B + t * K * N;
    for (int n = 0; n < N; ++n) {
      for (int k = 0; k < K; ++k) column[k] = Bt[k * N + n];
      for (int r = 0; r < M; ++r) {
        const size_t o = t * M * N + static_cast<size_t>(r) * N + n;
        D[o] = dot(m, At + static_cast<size_t>(r) * K, column, C[o]);
      }
    }
  }
}

size_t gemm_steps(const InstructionModel& m, size_t K) {
  const size_t k = static_cast<size_t>(m.instr.k);
  return (K + k - 1) / k;
}

void gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
          const uint32_t* C, uint32_t* D, uint32_t* trace) {
  const size_t k = static_cast<size_t>(m.instr.k), steps = gemm_steps(m, K);
  uint32_t row[512], column[512];  // one step's operands, zero-padded past K
  for (size_t r = 0; r < M; ++r) {
    for (size_t n = 0; n < N; ++n) {
      uint32_t acc = C[r * N + n];
      for (size_t step = 0; step < steps; ++step) {
        for (size_t i = 0; i < k; ++i) {
          const size_t kk = step * k + i;
          row[i] = kk < K ? A[r * K + kk] : 0u;  // +0 in every format
          column[i] = kk < K ? B[kk * N + n] : 0u;
        }
        acc = dot(m, row, column, acc);
        if (trace) trace[(r * N + n) * steps + step] = acc;
      }
      D[r * N + n] = acc;
    }
  }
}

}  // namespace mmaemu::ref
