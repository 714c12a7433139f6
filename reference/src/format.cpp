// Number formats as data, decoding through per-format lookup tables.
#include <array>
#include <bit>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::ref {
namespace {

// One row per format, in FormatId's order.
constexpr std::array<FormatSpec, static_cast<size_t>(FormatId::count)> kSpecs = {{
    {"fp32", 32, 8, 23, 127, SpecialStyle::ieee, 0},
    {"tf32", 32, 8, 10, 127, SpecialStyle::ieee, 13},
    {"fp16", 16, 5, 10, 15, SpecialStyle::ieee, 0},
    {"bf16", 16, 8, 7, 127, SpecialStyle::ieee, 0},
    {"e4m3", 8, 4, 3, 7, SpecialStyle::finite_one_nan, 0},
    {"e5m2", 8, 5, 2, 15, SpecialStyle::ieee, 0},
    {"e8m13", 32, 8, 13, 127, SpecialStyle::ieee, 10},
    {"e2m1", 4, 2, 1, 1, SpecialStyle::finite_no_nan, 0},
    {"e3m2", 6, 3, 2, 3, SpecialStyle::finite_no_nan, 0},
    {"e2m3", 6, 2, 3, 1, SpecialStyle::finite_no_nan, 0},
    {"ue8m0", 8, 8, 0, 127, SpecialStyle::finite_one_nan, 0, false},
    {"ue4m3", 7, 4, 3, 7, SpecialStyle::finite_one_nan, 0, false},
    {"fp64", 64, 11, 52, 1023, SpecialStyle::ieee, 0},
}};

// The functions of one 32-bit pattern are for the formats that fit one; fp64 has its own arithmetic.
[[noreturn, gnu::cold, gnu::noinline]] void not_narrow(const FormatSpec& s) {
  throw std::invalid_argument(std::string(s.name) + " does not fit a 32-bit pattern (it takes two words)");
}

// Inlined into every decode (a profile of the oracle found it a call of its own, 6% of a block's time):
// the error path lives apart.
inline const FormatSpec& narrow_spec(FormatId f) {
  const FormatSpec& s = kSpecs[static_cast<size_t>(f)];
  if (s.storage_bits > 32) not_narrow(s);
  return s;
}

uint32_t sign_mask(const FormatSpec& s) { return s.is_signed ? 1u << (s.storage_bits - 1) : 0u; }

Decoded decode_slow(const FormatSpec& s, uint32_t bits) {
  const int m = s.man_bits;
  const uint32_t frac = (bits >> s.man_shift) & ((1u << m) - 1u);
  const uint32_t bexp = (bits >> (s.man_shift + m)) & ((1u << s.exp_bits) - 1u);
  const bool neg = (bits & sign_mask(s)) != 0;
  const uint32_t all_ones = (1u << s.exp_bits) - 1u;
  Decoded d{ValueClass::normal, neg, 0, 0};
  if (bexp == all_ones) {
    if (s.specials == SpecialStyle::ieee) {
      d.cls = frac ? ValueClass::nan : ValueClass::inf;
      return d;
    }
    if (s.specials == SpecialStyle::finite_one_nan && frac == (1u << m) - 1u) {
      d.cls = ValueClass::nan;
      return d;
    }
  }
  if (bexp == 0 && m > 0) {  // without fraction bits (ue8m0) code 0 is a normal number
    d.cls = frac ? ValueClass::subnormal : ValueClass::zero;
    d.exp = static_cast<int16_t>(s.emin());
    d.sig = frac;
    return d;
  }
  d.exp = static_cast<int16_t>(static_cast<int>(bexp) - s.bias);
  d.sig = frac | (1u << m);
  return d;
}

// Lookup tables for the narrow formats: decoding is a load, not a chain of branches. Built on first
// use by a function-local static, whose later uses cost one inlined guard check (std::call_once cost
// a library call per decode: a third of the oracle's time per block).
const std::vector<Decoded>& table(FormatId f) {
  using Tables = std::array<std::vector<Decoded>, static_cast<size_t>(FormatId::count)>;
  static const Tables tables = [] {
    Tables t;
    for (size_t i = 0; i < kSpecs.size(); ++i) {
      if (kSpecs[i].storage_bits > 16) continue;
      t[i].resize(size_t{1} << kSpecs[i].storage_bits);
      for (uint32_t b = 0; b < t[i].size(); ++b) t[i][b] = decode_slow(kSpecs[i], b);
    }
    return t;
  }();
  return tables[static_cast<size_t>(f)];
}

}  // namespace

const FormatSpec& spec(FormatId f) { return kSpecs[static_cast<size_t>(f)]; }
int words_per_element(FormatId f) { return spec(f).storage_bits > 32 ? 2 : 1; }
std::string_view format_name(FormatId f) { return spec(f).name; }

std::optional<FormatId> parse_format(std::string_view n) {
  if (n == "f32" || n == "fp32") return FormatId::fp32;
  if (n == "tf32") return FormatId::tf32;
  if (n == "f16" || n == "fp16") return FormatId::fp16;
  if (n == "bf16") return FormatId::bf16;
  if (n == "e4m3") return FormatId::e4m3;
  if (n == "e5m2") return FormatId::e5m2;
  if (n == "e2m1") return FormatId::e2m1;
  if (n == "e3m2") return FormatId::e3m2;
  if (n == "e2m3") return FormatId::e2m3;
  if (n == "ue8m0") return FormatId::ue8m0;
  if (n == "ue4m3") return FormatId::ue4m3;
  if (n == "f64" || n == "fp64") return FormatId::fp64;
  return std::nullopt;
}

Decoded decode(FormatId f, uint32_t bits) {
  const FormatSpec& s = narrow_spec(f);
  if (s.storage_bits <= 16) return table(f)[bits & ((1u << s.storage_bits) - 1u)];
  return decode_slow(s, bits);
}

// Every bit but the sign: fp32 0x7FFFFFFF, fp16 and bf16 0x7FFF, e4m3 and e5m2 0x7F. In fp4 and fp6,
// which have no NaN, that pattern is the largest positive value (nothing the tensor cores return is
// in those formats; only a conversion of a NaN into them could give it).
uint32_t canonical_nan(FormatId f) {
  const FormatSpec& s = narrow_spec(f);
  return static_cast<uint32_t>((uint64_t{1} << s.storage_bits) - 1u) & ~sign_mask(s);
}

uint32_t zero_bits(FormatId f, bool neg) {
  return neg ? sign_mask(narrow_spec(f)) : 0u;
}

namespace {
uint32_t encode(const FormatSpec& s, bool neg, uint32_t biased_exp, uint32_t frac) {
  return (neg ? sign_mask(s) : 0u) | (biased_exp << (s.man_shift + s.man_bits)) |
         (frac << s.man_shift);
}
uint32_t max_finite(const FormatSpec& s, bool neg) {
  const uint32_t all_ones = (1u << s.exp_bits) - 1u;
  const uint32_t full_frac = (1u << s.man_bits) - 1u;
  switch (s.specials) {
    case SpecialStyle::ieee: return encode(s, neg, all_ones - 1, full_frac);
    case SpecialStyle::finite_one_nan:  // all-ones is NaN; without fraction bits (ue8m0) so is its exponent
      return s.man_bits == 0 ? encode(s, neg, all_ones - 1, 0) : encode(s, neg, all_ones, full_frac - 1);
    case SpecialStyle::finite_no_nan: return encode(s, neg, all_ones, full_frac);
  }
  return 0;
}
}  // namespace

uint32_t infinity_bits(FormatId f, bool neg) {
  const FormatSpec& s = narrow_spec(f);
  if (s.specials != SpecialStyle::ieee) return max_finite(s, neg);
  return encode(s, neg, (1u << s.exp_bits) - 1u, 0);
}

uint32_t round_to_format(FormatId f, bool neg, unsigned __int128 mag, int scale, Rounding r,
                         bool rz_overflow_to_inf) {
  const FormatSpec& s = narrow_spec(f);
  if (mag == 0) return zero_bits(f, neg);
  const uint64_t hi = static_cast<uint64_t>(mag >> 64);
  const int msb = hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<uint64_t>(mag));
  const int m = s.man_bits;
  const int e = msb + scale;                       // value in [2^e, 2^(e+1))
  int lsb_exp = (e < s.emin() ? s.emin() : e) - m;  // weight of the result's last fraction bit
  const int shift = lsb_exp - scale;
  unsigned __int128 q;
  if (shift <= 0) {
    q = mag << -shift;  // exact: the value has no bits below the result's LSB
  } else {
    q = shift >= 128 ? 0 : mag >> shift;
    const unsigned __int128 rem = shift >= 128 ? mag : mag - (q << shift);
    if (r == Rounding::nearest_even && rem != 0) {
      const unsigned __int128 half = shift > 128 ? 0 : (unsigned __int128)1 << (shift - 1);
      if (shift <= 128 && (rem > half || (rem == half && (q & 1)))) ++q;  // ties to even
    }
  }
  if (q >> (m + 1)) {  // rounding carried into a new binade
    q >>= 1;
    ++lsb_exp;
  }
  const bool normal = (q >> m) != 0;
  uint32_t biased = normal ? static_cast<uint32_t>(lsb_exp + m + s.bias) : 0u;
  const uint32_t frac = static_cast<uint32_t>(q) & ((1u << m) - 1u);
  const uint32_t top = (1u << s.exp_bits) - 1u;
  const bool overflow = normal && (lsb_exp + m + s.bias > static_cast<int>(top) ||
                                   (s.specials == SpecialStyle::ieee && biased == top) ||
                                   (s.specials == SpecialStyle::finite_one_nan && biased == top &&
                                    frac == (1u << m) - 1u));
  if (overflow) {
    if (r == Rounding::nearest_even || rz_overflow_to_inf) return infinity_bits(f, neg);
    return max_finite(s, neg);
  }
  return encode(s, neg, biased, frac);
}

uint32_t convert(FormatId from, uint32_t bits, FormatId to, Rounding r) {
  const Decoded d = decode(from, bits);
  switch (d.cls) {
    case ValueClass::nan: return canonical_nan(to);
    case ValueClass::inf: return infinity_bits(to, d.neg);
    case ValueClass::zero: return zero_bits(to, d.neg);
    default: break;
  }
  return round_to_format(to, d.neg, d.sig, d.exp - spec(from).man_bits, r);
}

std::optional<uint32_t> from_fp32_exact(FormatId to, uint32_t fp32_bits) {
  const Decoded d = decode(FormatId::fp32, fp32_bits);
  if (d.cls == ValueClass::nan) return canonical_nan(to);
  if (d.cls == ValueClass::inf) {
    if (spec(to).specials != SpecialStyle::ieee) return std::nullopt;
    return infinity_bits(to, d.neg);
  }
  const uint32_t out = convert(FormatId::fp32, fp32_bits, to, Rounding::toward_zero);
  if (convert(to, out, FormatId::fp32, Rounding::toward_zero) != fp32_bits) return std::nullopt;
  return out;
}

}  // namespace mmaemu::ref
