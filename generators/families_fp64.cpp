// The input families for fp64 operands (fp64 mma), whose elements take two words each. The other
// families build patterns through FormatBits, which holds one 32-bit word; fp64's arithmetic is an IEEE
// fma chain, so what its tiles must reach is the binary64 range itself: subnormal products and
// results, overflow, cancellation to exact zero and its sign, NaN payloads in and canonical NaN out.
#include <bit>
#include <cmath>
#include <limits>

#include "generators/families.hpp"
#include "generators/families_fp64.hpp"
#include "generators/rng.hpp"

namespace mmaemu::gen {
namespace {

constexpr int kMan = 52, kBias = 1023, kEmin = -1022, kEmax = 1023;
constexpr uint64_t kFracMask = (uint64_t{1} << kMan) - 1;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Fp64Tile {
  int M, N, K;
  Rng rng;
  uint32_t *a, *b, *c;

  static void put(uint32_t* words, size_t i, uint64_t bits) {
    words[2 * i] = static_cast<uint32_t>(bits);
    words[2 * i + 1] = static_cast<uint32_t>(bits >> 32);
  }
  static uint64_t get(const uint32_t* words, size_t i) { return uint64_t{words[2 * i]} | uint64_t{words[2 * i + 1]} << 32; }
  uint64_t a_at(int m, int k) const { return get(a, static_cast<size_t>(m) * K + k); }
  uint64_t b_at(int k, int n) const { return get(b, static_cast<size_t>(k) * N + n); }
  void A(int m, int k, uint64_t v) { put(a, static_cast<size_t>(m) * K + k, v); }
  void B(int k, int n, uint64_t v) { put(b, static_cast<size_t>(k) * N + n, v); }
  void C(int m, int n, uint64_t v) { put(c, static_cast<size_t>(m) * N + n, v); }
  void Ad(int m, int k, double v) { A(m, k, std::bit_cast<uint64_t>(v)); }
  void Bd(int k, int n, double v) { B(k, n, std::bit_cast<uint64_t>(v)); }
  void Cd(int m, int n, double v) { C(m, n, std::bit_cast<uint64_t>(v)); }

  bool sign() { return rng.chance(0.5); }
  uint64_t frac() { return rng.next() >> (64 - kMan); }
  // (-1)^neg * 1.frac * 2^exp, exp clamped to the normal range.
  uint64_t normal(int exp) {
    const uint64_t f = frac();
    const bool neg = sign();
    exp = exp < kEmin ? kEmin : exp > kEmax ? kEmax : exp;
    return (uint64_t{neg} << 63) | (static_cast<uint64_t>(exp + kBias) << kMan) | f;
  }
  uint64_t subnormal() {
    const uint64_t f = frac() | 1;
    return (uint64_t{sign()} << 63) | f;
  }
  uint64_t nan() {  // random payload, quiet or signalling, either sign
    const uint64_t f = frac() | 1;
    return (uint64_t{sign()} << 63) | (uint64_t{0x7FF} << kMan) | f;
  }
  uint64_t moderate() { return normal(rng.uniform_int(-8, 8)); }

  template <class F>
  void each_a(F f) {
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) A(m, k, f());
  }
  template <class F>
  void each_b(F f) {
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n) B(k, n, f());
  }
  template <class F>
  void each_c(F f) {
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) C(m, n, f());
  }
};

void realistic(Fp64Tile& t) {
  t.each_a([&] { return t.moderate(); });
  t.each_b([&] { return t.moderate(); });
  t.each_c([&] { return t.moderate(); });
}

void random_bits(Fp64Tile& t) {
  t.each_a([&] { return t.rng.next(); });
  t.each_b([&] { return t.rng.next(); });
  t.each_c([&] { return t.rng.next(); });
}

// Products around 2^-1074 ... 2^-1000: subnormal partial sums and results, and subnormal operands.
void subnormal(Fp64Tile& t) {
  t.each_a([&] { return t.rng.chance(0.25) ? t.subnormal() : t.normal(t.rng.uniform_int(-560, -500)); });
  t.each_b([&] { return t.rng.chance(0.25) ? std::bit_cast<uint64_t>(t.rng.uniform_int(1, 8) * 0.125) : t.normal(t.rng.uniform_int(-560, -500)); });
  t.each_c([&] { return t.rng.chance(0.5) ? t.subnormal() : t.normal(t.rng.uniform_int(-1060, -1000)); });
}

// x*y followed by -x*y (exact) or -x*y' (y' one ulp off), and C that cancels the running sum's start:
// exact zeros (whose sign is the rule under test) and tiny residues.
void cancellation(Fp64Tile& t) {
  for (int m = 0; m < t.M; ++m)
    for (int k = 0; k < t.K; ++k) t.A(m, k, t.moderate());
  for (int k = 0; k < t.K; ++k)
    for (int n = 0; n < t.N; ++n) t.B(k, n, t.moderate());
  // Odd k repeats the even k before it in A and negates it in B: a[k] b[k] = -a[k-1] b[k-1].
  for (int k = 1; k < t.K; k += 2)
    for (int m = 0; m < t.M; ++m) t.A(m, k, t.a_at(m, k - 1));
  for (int k = 1; k < t.K; k += 2)
    for (int n = 0; n < t.N; ++n) {
      uint64_t y = t.b_at(k - 1, n) ^ (uint64_t{1} << 63);  // -y: the pair cancels exactly
      if (t.rng.chance(0.3)) y ^= 1;             // or leaves one ulp's worth
      t.B(k, n, y);
    }
  t.each_c([&] {
    const int pick = t.rng.uniform_int(0, 3);
    return pick == 0 ? uint64_t{0} : pick == 1 ? uint64_t{1} << 63 : t.normal(t.rng.uniform_int(-60, -40));
  });
}

// One product (or C) far above the rest: the small terms fall below its last place or round it.
void dominant(Fp64Tile& t) {
  t.each_a([&] { return t.normal(t.rng.uniform_int(-30, -20)); });
  t.each_b([&] { return t.moderate(); });
  t.each_c([&] { return t.normal(t.rng.uniform_int(20, 60)); });
  for (int m = 0; m < t.M; ++m) t.A(m, t.rng.uniform_int(0, t.K - 1), t.normal(t.rng.uniform_int(25, 55)));
}

void specials(Fp64Tile& t) {
  const auto special = [&]() -> uint64_t {
    switch (t.rng.uniform_int(0, 7)) {
      case 0: return t.nan();
      case 1: return std::bit_cast<uint64_t>(t.sign() ? -kInf : kInf);
      case 2: return t.sign() ? uint64_t{1} << 63 : 0;
      case 3: return std::bit_cast<uint64_t>(t.sign() ? -std::numeric_limits<double>::max() : std::numeric_limits<double>::max());
      case 4: return (uint64_t{t.sign()} << 63) | 1;  // smallest subnormal
      default: return t.moderate();
    }
  };
  t.each_a(special);
  t.each_b(special);
  t.each_c(special);
  // inf * 0 and inf - inf planted in row 0 / column 0.
  t.Ad(0, 0, kInf);
  t.Bd(0, 0, 0.0);
  if (t.K > 1) {
    t.Ad(0, 1, kInf);
    t.Bd(1, 0, 1.0);
    t.Cd(0, 0, -kInf);
  }
}

void small_int(Fp64Tile& t) {
  const auto v = [&] { return std::bit_cast<uint64_t>(static_cast<double>(t.rng.uniform_int(-8, 8))); };
  t.each_a(v);
  t.each_b(v);
  t.each_c(v);
}

// C at the edges of the range against products of every size: overflow to Inf, max finite kept.
void extreme_acc(Fp64Tile& t) {
  t.each_a([&] { return t.normal(t.rng.uniform_int(500, 512)); });
  t.each_b([&] { return t.normal(t.rng.uniform_int(500, 511)); });
  t.each_c([&] {
    switch (t.rng.uniform_int(0, 4)) {
      case 0: return std::bit_cast<uint64_t>(std::numeric_limits<double>::max());
      case 1: return t.normal(kEmax - t.rng.uniform_int(0, 3));
      case 2: return t.subnormal();
      case 3: return uint64_t{t.sign()} << 63;
      default: return t.normal(t.rng.uniform_int(-1000, -900));
    }
  });
}

// All-ones significands: every fma's exact sum carries into a new binade before it rounds.
void carry_chain(Fp64Tile& t) {
  const auto ones = [&](int exp) { return (static_cast<uint64_t>(exp + kBias) << kMan) | kFracMask; };
  t.each_a([&] { return ones(t.rng.uniform_int(-2, 2)); });
  t.each_b([&] { return ones(t.rng.uniform_int(-2, 2)); });
  t.each_c([&] { return ones(t.rng.uniform_int(-4, 4)); });
}

// +-2^40 pairs among ones: the order the products are added in shows in the bits.
void pair_probe(Fp64Tile& t) {
  t.each_a([&] { return std::bit_cast<uint64_t>(1.0); });
  t.each_b([&] { return std::bit_cast<uint64_t>(t.sign() ? -1.0 : 1.0); });
  t.each_c([&] { return uint64_t{0}; });
  for (int m = 0; m < t.M; ++m) {
    const int k = t.rng.uniform_int(0, t.K - 1);
    t.Ad(m, k, t.sign() ? -0x1p60 : 0x1p60);
  }
}

}  // namespace

void generate_fp64_tile(Family family, const ref::Instruction& in, uint64_t seed, uint32_t* a, uint32_t* b, uint32_t* c) {
  Fp64Tile t{in.m, in.n, in.k, Rng(seed), a, b, c};
  switch (family) {
    case Family::realistic: return realistic(t);
    case Family::random_bits: return random_bits(t);
    case Family::subnormal: return subnormal(t);
    case Family::cancellation: return cancellation(t);
    case Family::dominant: return dominant(t);
    case Family::specials: return specials(t);
    case Family::small_int: return small_int(t);
    case Family::extreme_acc: return extreme_acc(t);
    case Family::carry_chain: return carry_chain(t);
    case Family::pair_probe: return pair_probe(t);
  }
}

}  // namespace mmaemu::gen
