#include "generators/format_bits.hpp"

#include <algorithm>
#include <cmath>

namespace mmaemu::gen {

FormatBits::FormatBits(ref::FormatId id) : id_(id), spec_(&ref::spec(id)) {
  const int all_ones_exp = (1 << spec_->exp_bits) - 1;
  // IEEE-style formats reserve the all-ones exponent; e4m3 uses it for finite values.
  const int top_biased = spec_->specials == ref::SpecialStyle::ieee ? all_ones_exp - 1 : all_ones_exp;
  emax_ = top_biased - spec_->bias;
}

uint32_t FormatBits::pack(bool neg, uint32_t biased_exp, uint32_t frac) const {
  const int shift = spec_->man_shift;
  uint32_t bits = (frac & frac_mask()) << shift;
  bits |= (biased_exp & ((1u << spec_->exp_bits) - 1u)) << (shift + spec_->man_bits);
  if (neg) bits |= 1u << (width() - 1);
  return bits;
}

uint32_t FormatBits::normal(bool neg, int exp, uint32_t frac) const {
  exp = std::clamp(exp, emin(), emax());
  frac &= frac_mask();
  if (exp == emax() && spec_->specials == ref::SpecialStyle::finite_one_nan && frac == frac_mask())
    frac = frac_mask() - 1;
  return pack(neg, static_cast<uint32_t>(exp + spec_->bias), frac);
}

uint32_t FormatBits::subnormal(bool neg, uint32_t frac) const {
  frac &= frac_mask();
  return pack(neg, 0, frac == 0 ? 1u : frac);
}

uint32_t FormatBits::max_finite(bool neg) const {
  const uint32_t frac = spec_->specials == ref::SpecialStyle::finite_one_nan ? frac_mask() - 1 : frac_mask();
  return pack(neg, static_cast<uint32_t>(emax() + spec_->bias), frac);
}

uint32_t FormatBits::inf(bool neg) const {
  if (!has_inf()) return max_finite(neg);
  return pack(neg, (1u << spec_->exp_bits) - 1u, 0);
}

uint32_t FormatBits::nan(bool neg, uint32_t payload) const {
  const uint32_t all_ones_exp = (1u << spec_->exp_bits) - 1u;
  if (spec_->specials == ref::SpecialStyle::finite_one_nan) return pack(neg, all_ones_exp, frac_mask());
  payload &= frac_mask();
  return pack(neg, all_ones_exp, payload == 0 ? 1u : payload);
}

ref::ValueClass FormatBits::classify(uint32_t bits) const {
  const int shift = spec_->man_shift;
  const uint32_t frac = (bits >> shift) & frac_mask();
  const uint32_t bexp = (bits >> (shift + spec_->man_bits)) & ((1u << spec_->exp_bits) - 1u);
  const uint32_t all_ones_exp = (1u << spec_->exp_bits) - 1u;
  if (bexp == all_ones_exp) {
    if (spec_->specials == ref::SpecialStyle::ieee) return frac ? ref::ValueClass::nan : ref::ValueClass::inf;
    if (spec_->specials == ref::SpecialStyle::finite_one_nan && frac == frac_mask()) return ref::ValueClass::nan;
  }
  if (bexp == 0) return frac ? ref::ValueClass::subnormal : ref::ValueClass::zero;
  return ref::ValueClass::normal;
}

double FormatBits::to_double(uint32_t bits) const {
  const bool neg = (bits >> (width() - 1)) & 1u;
  const int shift = spec_->man_shift;
  const uint32_t frac = (bits >> shift) & frac_mask();
  const uint32_t bexp = (bits >> (shift + spec_->man_bits)) & ((1u << spec_->exp_bits) - 1u);
  double v;
  switch (classify(bits)) {
    case ref::ValueClass::nan: return std::nan("");
    case ref::ValueClass::inf: v = INFINITY; break;
    case ref::ValueClass::zero: v = 0.0; break;
    case ref::ValueClass::subnormal: v = std::ldexp(static_cast<double>(frac), emin() - man_bits()); break;
    default:
      v = std::ldexp(static_cast<double>(frac | (1u << man_bits())),
                     static_cast<int>(bexp) - spec_->bias - man_bits());
  }
  return neg ? -v : v;
}

uint32_t FormatBits::encode_nearest(double v) const {
  if (std::isnan(v)) return nan(false, 1u << (man_bits() - 1));
  const bool neg = std::signbit(v);
  const double mag = std::fabs(v);
  if (std::isinf(mag)) return inf(neg);
  if (mag == 0.0) return zero(neg);
  int e2;
  std::frexp(mag, &e2);  // mag = f * 2^e2, f in [0.5, 1)
  int exp = std::max(e2 - 1, emin());
  const uint64_t one = uint64_t{1} << man_bits();
  // Significand in units of the quantum at this exponent, rounded to nearest even.
  uint64_t sig = static_cast<uint64_t>(std::nearbyint(std::ldexp(mag, man_bits() - exp)));
  if (sig >= 2 * one) {  // rounding carried into the next binade
    sig >>= 1;
    ++exp;
  }
  if (sig < one) return pack(neg, 0, static_cast<uint32_t>(sig));  // subnormal (or zero)
  const uint32_t frac = static_cast<uint32_t>(sig - one);
  const bool e4m3_nan_code = spec_->specials == ref::SpecialStyle::finite_one_nan && exp == emax() &&
                             frac == frac_mask();
  if (exp > emax() || e4m3_nan_code) return inf(neg);
  return pack(neg, static_cast<uint32_t>(exp + spec_->bias), frac);
}

std::optional<uint32_t> FormatBits::encode_exact(double v) const {
  if (std::isnan(v)) return std::nullopt;
  const uint32_t bits = encode_nearest(v);
  if (to_double(bits) != v) return std::nullopt;
  return bits;
}

}  // namespace mmaemu::gen
