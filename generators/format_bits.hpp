// Building and reading raw bit patterns of one number format, from its FormatSpec.
//
// The generators construct operands by (sign, exponent, fraction) rather than by rounding doubles,
// so every family controls exactly which exponents and fraction bits it exercises. Exponents are
// unbiased; "fraction" means the man_bits that carry value (for tf32 the top 10 of fp32's 23; the low
// 13 bits of a tf32 operand are set separately, see with_tf32_low_bits).
#pragma once
#include <cstdint>
#include <optional>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::gen {

class FormatBits {
 public:
  explicit FormatBits(ref::FormatId id);

  ref::FormatId id() const { return id_; }
  int width() const { return spec_->storage_bits; }
  int man_bits() const { return spec_->man_bits; }
  int emin() const { return spec_->emin(); }  // exponent of the smallest normal
  int emax() const { return emax_; }          // exponent of the largest finite value
  bool has_inf() const { return spec_->specials == ref::SpecialStyle::ieee; }
  uint32_t frac_mask() const { return (1u << spec_->man_bits) - 1u; }
  uint32_t storage_mask() const { return width() == 32 ? 0xFFFFFFFFu : (1u << width()) - 1u; }

  uint32_t pack(bool neg, uint32_t biased_exp, uint32_t frac) const;
  // A normal value (-1)^neg * 1.frac * 2^exp. exp is clamped into [emin, emax]; at emax of a format
  // without infinities the fraction is kept below the NaN code.
  uint32_t normal(bool neg, int exp, uint32_t frac) const;
  uint32_t subnormal(bool neg, uint32_t frac) const;  // frac 0 is replaced by 1 (never a zero)
  uint32_t zero(bool neg) const { return pack(neg, 0, 0); }
  uint32_t max_finite(bool neg) const;
  uint32_t min_subnormal(bool neg) const { return pack(neg, 0, 1); }
  uint32_t inf(bool neg) const;                       // formats without Inf: max finite
  uint32_t nan(bool neg, uint32_t payload) const;     // payload 0 becomes 1; e4m3 has one NaN
  uint32_t all_ones(bool neg, int exp) const { return normal(neg, exp, frac_mask()); }
  // The bit of the stored pattern that is the last fraction bit carrying value (one ulp).
  uint32_t ulp_bit() const { return 1u << spec_->man_shift; }

  ref::ValueClass classify(uint32_t bits) const;
  bool is_nan(uint32_t bits) const { return classify(bits) == ref::ValueClass::nan; }
  bool is_inf(uint32_t bits) const { return classify(bits) == ref::ValueClass::inf; }

  // Exact value (NaN and infinities as double NaN/Inf). tf32 reads its 10 value bits only.
  double to_double(uint32_t bits) const;
  // Round-to-nearest-even encoding of v; overflow gives Inf (formats without Inf: max finite).
  uint32_t encode_nearest(double v) const;
  // The encoding of v when v is exactly representable, else nullopt.
  std::optional<uint32_t> encode_exact(double v) const;

 private:
  ref::FormatId id_;
  const ref::FormatSpec* spec_;
  int emax_;
};

}  // namespace mmaemu::gen
