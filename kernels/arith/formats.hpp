// Raw bits of the number formats, decoded and rounded with bit operations only (no tables in memory,
// no allocation), as __host__ __device__ code. Written from the format definitions, independently of
// reference/, so that comparing the two proves something.
#pragma once
#include <cstdint>

#include "kernels/arith/hd.hpp"
#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::arith {

// The format definitions (OCP FP8 for e4m3 / e5m2; e8m13 is the fp32-range, 13-fraction-bit
// accumulator of Ada and Hopper FP8, stored as an fp32 pattern; OCP MX fp4 e2m1 and fp6 e3m2 / e2m3,
// finite only, in the low bits of a byte).
MMAEMU_HD constexpr FmtParams fmt_params(Fmt f) {
  switch (f) {
    case Fmt::fp32: return {Fmt::fp32, 32, 8, 23, 0, Specials::ieee, 127};
    case Fmt::tf32: return {Fmt::tf32, 32, 8, 10, 13, Specials::ieee, 127};
    case Fmt::fp16: return {Fmt::fp16, 16, 5, 10, 0, Specials::ieee, 15};
    case Fmt::bf16: return {Fmt::bf16, 16, 8, 7, 0, Specials::ieee, 127};
    case Fmt::e4m3: return {Fmt::e4m3, 8, 4, 3, 0, Specials::finite_one_nan, 7};
    case Fmt::e5m2: return {Fmt::e5m2, 8, 5, 2, 0, Specials::ieee, 15};
    case Fmt::e8m13: return {Fmt::e8m13, 32, 8, 13, 10, Specials::ieee, 127};
    case Fmt::e2m1: return {Fmt::e2m1, 4, 2, 1, 0, Specials::finite_no_nan, 1};
    case Fmt::e3m2: return {Fmt::e3m2, 6, 3, 2, 0, Specials::finite_no_nan, 3};
    case Fmt::e2m3: return {Fmt::e2m3, 6, 2, 3, 0, Specials::finite_no_nan, 1};
  }
  return {};
}

enum class Cls : uint8_t { zero, subnormal, normal, inf, nan };

// value = (-1)^neg * sig * 2^(exp - man_bits); normals carry the implicit bit (sig < 2^(man_bits+1)),
// subnormals have exp = 1 - bias and no implicit bit.
struct Value {
  Cls cls;
  bool neg;
  int exp;
  uint32_t sig;
};

MMAEMU_HD int emin(const FmtParams& f) { return 1 - f.bias; }
MMAEMU_HD uint32_t low_mask(int bits) { return bits >= 32 ? ~0u : (1u << bits) - 1u; }

MMAEMU_HD Value decode(const FmtParams& f, uint32_t bits) {
  const uint32_t frac = (bits >> f.man_shift) & low_mask(f.man_bits);
  const uint32_t bexp = (bits >> (f.man_shift + f.man_bits)) & low_mask(f.exp_bits);
  const bool neg = (bits >> (f.storage_bits - 1)) & 1u;
  const uint32_t top = low_mask(f.exp_bits);
  if (bexp == top) {
    if (f.specials == Specials::ieee) return {frac ? Cls::nan : Cls::inf, neg, 0, 0};
    if (f.specials == Specials::finite_one_nan && frac == low_mask(f.man_bits)) return {Cls::nan, neg, 0, 0};
  }
  if (bexp == 0) return {frac ? Cls::subnormal : Cls::zero, neg, emin(f), frac};
  return {Cls::normal, neg, static_cast<int>(bexp) - f.bias, frac | (1u << f.man_bits)};
}

// The quiet NaN tensor cores return: every bit but the sign set (fp32 0x7FFFFFFF, fp16 0x7FFF, e4m3 0x7F).
MMAEMU_HD uint32_t canonical_nan(const FmtParams& f) {
  return low_mask(f.storage_bits - 1);
}
MMAEMU_HD uint32_t zero_bits(const FmtParams& f, bool neg) { return neg ? 1u << (f.storage_bits - 1) : 0u; }

MMAEMU_HD uint32_t encode(const FmtParams& f, bool neg, uint32_t biased_exp, uint32_t frac) {
  return zero_bits(f, neg) | (biased_exp << (f.man_shift + f.man_bits)) | (frac << f.man_shift);
}

MMAEMU_HD uint32_t max_finite(const FmtParams& f, bool neg) {
  const uint32_t top = low_mask(f.exp_bits), full = low_mask(f.man_bits);
  switch (f.specials) {
    case Specials::ieee: return encode(f, neg, top - 1, full);
    case Specials::finite_one_nan: return encode(f, neg, top, full - 1);
    case Specials::finite_no_nan: return encode(f, neg, top, full);
  }
  return 0;
}

// Inf, or the largest finite value in formats without one.
MMAEMU_HD uint32_t infinity_bits(const FmtParams& f, bool neg) {
  return f.specials == Specials::ieee ? encode(f, neg, low_mask(f.exp_bits), 0) : max_finite(f, neg);
}

// Rounds (-1)^neg * mag * 2^scale to f (mag < 2^64), toward zero or to nearest even; subnormal
// results and overflow included (RNE overflow: Inf; RZ: Inf when rz_overflow_to_inf, else max finite).
MMAEMU_HD uint32_t round_to(const FmtParams& f, bool neg, uint64_t mag, int scale, bool nearest,
                            bool rz_overflow_to_inf) {
  if (mag == 0) return zero_bits(f, neg);
  const int m = f.man_bits;
  const int e = msb64(mag) + scale;              // the value lies in [2^e, 2^(e+1))
  int lsb_exp = imax(e, emin(f)) - m;            // weight of the result's last fraction bit
  const int shift = lsb_exp - scale;             // bits of mag below that weight
  uint64_t q;
  if (shift <= 0) {
    q = mag << -shift;  // exact: the result has room for every bit of mag (q < 2^(m+1))
  } else if (shift >= 64) {
    // mag < 2^64 <= 2^shift: below one ulp; above half of it only when shift == 64 and mag > 2^63.
    q = (nearest && shift == 64 && (mag >> 63) && (mag << 1) != 0) ? 1 : 0;
  } else {
    q = mag >> shift;
    if (nearest) {
      const uint64_t rem = mag & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  if (q >> (m + 1)) {  // rounding carried into the next binade
    q >>= 1;
    ++lsb_exp;
  }
  const bool normal = (q >> m) != 0;
  const int biased = lsb_exp + m + f.bias;
  const uint32_t frac = static_cast<uint32_t>(q) & low_mask(m);
  const int top = static_cast<int>(low_mask(f.exp_bits));
  const bool overflow =
      normal && (biased > top || (f.specials == Specials::ieee && biased == top) ||
                 (f.specials == Specials::finite_one_nan && biased == top && frac == low_mask(m)));
  if (overflow) return (nearest || rz_overflow_to_inf) ? infinity_bits(f, neg) : max_finite(f, neg);
  return encode(f, neg, normal ? static_cast<uint32_t>(biased) : 0u, frac);
}

// A value of one format in another: exact when it fits, else rounded (RNE or RZ).
MMAEMU_HD uint32_t convert(const FmtParams& from, uint32_t bits, const FmtParams& to, bool nearest) {
  const Value v = decode(from, bits);
  if (v.cls == Cls::zero) return zero_bits(to, v.neg);
  switch (v.cls) {
    case Cls::nan: return canonical_nan(to);
    case Cls::inf: return infinity_bits(to, v.neg);
    case Cls::zero: return zero_bits(to, v.neg);
    default: break;
  }
  return round_to(to, v.neg, v.sig, v.exp - from.man_bits, nearest, false);
}

}  // namespace mmaemu::kernels::arith
