#include "harness/probe/probe_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::probe {
namespace {

long double value_of(const ref::Decoded& d, ref::FormatId f) {
  return std::ldexp(static_cast<long double>(d.sig), d.exp - ref::spec(f).man_bits);
}

// The exponents e with 2^e a normal number of f.
std::pair<int, int> normal_range(ref::FormatId f) {
  int lo = 0, hi = 0;
  for (int e = 0; e < 400 && exact_bits(f, false, 1, e); ++e) hi = e;
  for (int e = 0; e > -400 && exact_bits(f, false, 1, e); --e) lo = e;
  return {lo, hi};
}

}  // namespace

std::optional<uint32_t> exact_bits(ref::FormatId f, bool neg, uint64_t mag, int e, bool allow_subnormal) {
  if (mag == 0) return ref::zero_bits(f, neg);
  const uint32_t bits = ref::round_to_format(f, neg, mag, e, ref::Rounding::toward_zero, false);
  const ref::Decoded d = ref::decode(f, bits);
  if (d.cls != ref::ValueClass::normal && !(allow_subnormal && d.cls == ref::ValueClass::subnormal)) return std::nullopt;
  if (d.neg != neg || value_of(d, f) != std::ldexp(static_cast<long double>(mag), e)) return std::nullopt;
  return bits;
}

ValueMaker::ValueMaker(const ref::Instruction& in) : in_(in) {
  const auto [alo, ahi] = normal_range(in.a);
  const auto [blo, bhi] = normal_range(in.b);
  const auto [dlo, dhi] = normal_range(in.d);
  // Two below D's top: sums of a few terms stay finite; 50 binades are enough for every probe.
  hi_ = std::min({ahi + bhi, dhi - 2, 60});
  lo_ = std::max({alo + blo, dlo, -60});
  lo_ = std::max(lo_, hi_ - 50);
  for (int m = 7; m >= 1; m -= 2)
    if (exact_bits(in.a, false, static_cast<uint64_t>(m), 0)) {
      max_odd_ = m;
      break;
    }
}

std::optional<std::pair<uint32_t, uint32_t>> ValueMaker::product(int64_t m, int e) const {
  const bool neg = m < 0;
  const uint64_t mag = static_cast<uint64_t>(std::llabs(m));
  if (mag == 0) return std::pair{ref::zero_bits(in_.a, neg), ref::zero_bits(in_.b, false)};
  // Split the exponent as evenly as the formats allow, so that both operands stay normal.
  for (int delta = 0; delta < 400; ++delta)
    for (int ea : {e / 2 + delta, e / 2 - delta}) {
      const auto a = exact_bits(in_.a, neg, mag, ea);
      const auto b = exact_bits(in_.b, false, 1, e - ea);
      if (a && b) return std::pair{*a, *b};
    }
  return std::nullopt;
}

std::optional<uint32_t> ValueMaker::c_value(int64_t m, int e, bool allow_subnormal) const {
  return exact_bits(in_.c, m < 0, static_cast<uint64_t>(std::llabs(m)), e, allow_subnormal);
}

}  // namespace mmaemu::probe
