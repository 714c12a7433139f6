// subnormal, specials, extreme_acc: the edges of each format's range.
#include <algorithm>
#include <array>

#include "generators/tile.hpp"

namespace mmaemu::gen {

void generate_subnormal(Tile& t) {
  // Operand exponent whose square lands at the output's subnormal boundary (when the operand
  // format reaches that far; fp16 and fp8 into fp32 cannot, and then use their own minimum).
  const int half_a = std::max(t.fa.emin(), t.fd.emin() / 2);
  const int half_b = std::max(t.fb.emin(), t.fd.emin() / 2);
  auto operand = [&](const FormatBits& f, int half) -> uint32_t {
    const double u = t.rng.uniform01();
    if (u < 0.05) return f.zero(t.sign());
    if (u < 0.40) return t.subnormal(f);
    if (u < 0.65) return t.normal(f, [&] { return f.emin() + t.rng.uniform_int(0, 3); });
    if (u < 0.85) return t.normal(f, [&] { return half + t.rng.uniform_int(-6, 4); });
    return t.normal(f, [&] { return t.rng.uniform_int(-2, 2); });  // keeps subnormal*1 products
  };
  for (int i = 0; i < t.M * t.K; ++i) t.a[i] = operand(t.fa, half_a);
  for (int i = 0; i < t.K * t.N; ++i) t.b[i] = operand(t.fb, half_b);
  const int product_level = half_a + half_b;
  for (int i = 0; i < t.M * t.N; ++i) {
    const double u = t.rng.uniform01();
    const FormatBits& f = t.fc;
    if (u < 0.35) t.c[i] = t.subnormal(f);
    else if (u < 0.60) t.c[i] = t.normal(f, [&] { return f.emin() + t.rng.uniform_int(0, 4); });
    else if (u < 0.75) t.c[i] = f.zero(t.sign());
    else t.c[i] = t.normal(f, [&] { return product_level + t.rng.uniform_int(-4, 4); });
  }
}

namespace {

// One special or edge value of format f.
uint32_t special_value(Tile& t, const FormatBits& f) {
  switch (t.rng.uniform_int(0, 6)) {
    case 0: return t.nan(f);  // random payload, quiet or signalling
    case 1: return f.nan(false, 1u << (f.man_bits() - 1));       // the usual quiet NaN
    case 2: return f.inf(t.sign());
    case 3: return f.zero(t.sign());
    case 4: return f.max_finite(t.sign());
    case 5: return f.min_subnormal(t.sign());
    default: return f.inf(t.rng.chance(0.5));
  }
}

uint32_t ordinary_value(Tile& t, const FormatBits& f) {
  return t.normal(f, [&] { return t.rng.uniform_int(-3, 3); });
}

}  // namespace

void generate_specials(Tile& t) {
  // Sparse specials, so that most outputs meet at most one of them and show its own effect.
  const double density = std::array{0.02, 0.05, 0.12}[t.rng.uniform_int(0, 2)];
  auto fill = [&](uint32_t* x, int count, const FormatBits& f) {
    for (int i = 0; i < count; ++i) x[i] = t.rng.chance(density) ? special_value(t, f) : ordinary_value(t, f);
  };
  fill(t.a, t.M * t.K, t.fa);
  fill(t.b, t.K * t.N, t.fb);
  fill(t.c, t.M * t.N, t.fc);
  if (t.rng.chance(0.5)) {
    // inf * 0: row m0 has Inf at k0, column n0 of B has 0 there.
    const int m0 = t.rng.uniform_int(0, t.M - 1), k0 = t.rng.uniform_int(0, t.K - 1);
    t.A(m0, k0) = t.fa.inf(t.sign());
    t.B(k0, t.rng.uniform_int(0, t.N - 1)) = t.fb.zero(t.sign());
  }
  if (t.rng.chance(0.5) && t.K >= 2) {
    // inf - inf: row m1 has +Inf and -Inf against ordinary B values of one sign.
    const int m1 = t.rng.uniform_int(0, t.M - 1);
    const int k1 = t.rng.uniform_int(0, t.K / 2 - 1), k2 = t.K / 2 + t.rng.uniform_int(0, t.K / 2 - 1);
    t.A(m1, k1) = t.fa.inf(false);
    t.A(m1, k2) = t.fa.inf(true);
    for (int n = 0; n < t.N; ++n) {
      t.B(k1, n) = t.fb.normal(false, 0, t.frac(t.fb));
      t.B(k2, n) = t.fb.normal(false, 0, t.frac(t.fb));
    }
  }
  if (t.rng.chance(0.5)) {
    // C = Inf against a finite sum, or against an Inf product of the opposite sign.
    const int m2 = t.rng.uniform_int(0, t.M - 1), n2 = t.rng.uniform_int(0, t.N - 1);
    t.C(m2, n2) = t.fc.inf(t.sign());
  }
}

void generate_extreme_acc(Tile& t) {
  // Products: huge, small, tiny, or a per-element mix of those.
  const int regime = t.rng.uniform_int(0, 3);
  auto operand = [&](const FormatBits& f) -> uint32_t {
    const int r = regime == 3 ? t.rng.uniform_int(0, 2) : regime;
    const int exp = r == 0 ? f.emax() - t.rng.uniform_int(0, 3)
                  : r == 1 ? t.rng.uniform_int(-4, 0)
                           : f.emin() + t.rng.uniform_int(0, 3);
    return t.normal(f, [&] { return exp; });
  };
  for (int i = 0; i < t.M * t.K; ++i) t.a[i] = operand(t.fa);
  for (int i = 0; i < t.K * t.N; ++i) t.b[i] = operand(t.fb);
  const FormatBits& f = t.fc;
  for (int i = 0; i < t.M * t.N; ++i) {
    const double u = t.rng.uniform01();
    if (u < 0.20) t.c[i] = f.max_finite(t.sign());
    else if (u < 0.35) t.c[i] = t.normal(f, [&] { return f.emax() - t.rng.uniform_int(0, 1); });
    else if (u < 0.50) t.c[i] = t.normal(f, [&] { return f.emin(); });
    else if (u < 0.65) t.c[i] = t.subnormal(f);
    else if (u < 0.80) t.c[i] = f.zero(t.sign());
    else t.c[i] = t.normal(f, [&] { return t.rng.uniform_int(-4, 4); });
  }
}

}  // namespace mmaemu::gen
