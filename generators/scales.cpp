// Scale operands of block-scaled instructions, one family at a time. They come from a random stream of
// their own, so that a tile's A, B and C are the same bits with or without scales.
#include "generators/scales.hpp"

#include <algorithm>

#include "generators/rng.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::gen {
namespace {

// Patterns of one scale format. The scale formats are unsigned: (biased exponent << man_bits) | fraction.
struct ScaleBits {
  ref::FormatId id;
  const ref::FormatSpec& s;
  Rng& rng;

  uint32_t top() const { return (1u << s.exp_bits) - 1u; }
  uint32_t pack(uint32_t biased, uint32_t frac) const { return (biased << s.man_bits) | frac; }
  uint32_t frac() { return rng.bits(s.man_bits); }
  // 2^e * 1.frac, e clamped to the normal range, never the NaN code.
  uint32_t near(int e) {
    const int lo = s.man_bits ? 1 : 0, hi = static_cast<int>(top()) - (s.man_bits ? 0 : 1);
    const int biased = std::clamp(e + s.bias, lo, hi);
    uint32_t f = frac();
    if (static_cast<uint32_t>(biased) == top() && f == (1u << s.man_bits) - 1u) f = 0;
    return pack(static_cast<uint32_t>(biased), f);
  }
  uint32_t any() { return rng.bits(s.storage_bits); }
  uint32_t nan() const { return ref::canonical_nan(id); }
  uint32_t smallest() const { return 0; }  // ue8m0: 2^-127; ue4m3: zero
  uint32_t largest() const { return s.man_bits ? pack(top(), (1u << s.man_bits) - 2u) : pack(top() - 1, 0); }
  // ue4m3: a subnormal; ue8m0 (no subnormals): one of its nine smallest values, 2^-127 ... 2^-119.
  uint32_t tiny() { return s.man_bits ? pack(0, frac() | 1u) : pack(rng.bits(3) + (rng.chance(0.1) ? 8u : 0u), 0); }
};

uint32_t draw(Family family, ScaleBits& x) {
  Rng& r = x.rng;
  switch (family) {
    case Family::small_int:  // keeps every product and sum exact: the unit scale
      return ref::unit_scale_bits(x.id);
    case Family::random_bits:
      return x.any();
    case Family::subnormal:
      return r.chance(0.5) ? x.tiny() : x.near(static_cast<int>(r.uniform_int(-20, 0)));
    case Family::extreme_acc:
      return r.chance(0.3) ? x.largest() : r.chance(0.3) ? x.tiny() : x.near(static_cast<int>(r.uniform_int(-6, 6)));
    case Family::specials: {
      const double u = r.uniform01();
      if (u < 0.2) return x.nan();
      if (u < 0.3) return x.largest();
      if (u < 0.4) return x.smallest();
      return x.near(static_cast<int>(r.uniform_int(-3, 3)));
    }
    default:  // realistic, cancellation, dominant, carry_chain, pair_probe: scales near 1
      return x.near(static_cast<int>(r.uniform_int(-3, 3)));
  }
}

}  // namespace

void generate_scales(Family family, const ref::Instruction& in, uint64_t seed, size_t M, size_t S, size_t N,
                     uint32_t* sa, uint32_t* sb) {
  if (!in.scale) return;
  Rng rng(mix_seed(seed, 0x5CA1Eu + static_cast<uint64_t>(family)));
  ScaleBits x{in.scale->format, ref::spec(in.scale->format), rng};
  for (size_t i = 0; i < M * S; ++i) sa[i] = draw(family, x);
  for (size_t i = 0; i < S * N; ++i) sb[i] = draw(family, x);
}

}  // namespace mmaemu::gen
