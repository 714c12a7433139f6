// realistic, random_bits, small_int: the everyday inputs and the exact-arithmetic layout proof.
#include <cmath>

#include "generators/tile.hpp"

namespace mmaemu::gen {
namespace {

// A log-normal magnitude around 2^center with a random fraction; 2% exact zeros.
uint32_t lognormal_value(Tile& t, const FormatBits& f, int center) {
  if (t.rng.chance(0.02)) return f.zero(t.sign());
  const int exp = center + static_cast<int>(std::lround(t.rng.normal() * 1.5));
  return t.normal(f, [&] { return exp; });
}

}  // namespace

void generate_realistic(Tile& t) {
  // Per-tile scales, as in layers with different activation and weight magnitudes.
  const int sa = t.rng.uniform_int(-3, 3);
  const int sb = t.rng.uniform_int(-3, 3);
  for (int m = 0; m < t.M; ++m)
    for (int k = 0; k < t.K; ++k) t.A(m, k) = lognormal_value(t, t.fa, sa);
  for (int k = 0; k < t.K; ++k)
    for (int n = 0; n < t.N; ++n) t.B(k, n) = lognormal_value(t, t.fb, sb);
  // C about the size of a sum of K products of that scale (random walk: sqrt(K)).
  const int sc = sa + sb + (t.log2_k() + 1) / 2;
  for (int m = 0; m < t.M; ++m)
    for (int n = 0; n < t.N; ++n) t.C(m, n) = t.rng.chance(0.1) ? t.fc.zero(false) : lognormal_value(t, t.fc, sc);
}

void generate_random_bits(Tile& t) {
  for (int i = 0; i < t.M * t.K; ++i) t.a[i] = t.rng.bits(t.fa.width());
  for (int i = 0; i < t.K * t.N; ++i) t.b[i] = t.rng.bits(t.fb.width());
  for (int i = 0; i < t.M * t.N; ++i) t.c[i] = t.rng.bits(t.fc.width());
}

// Integers in [-8, 8] (those the format holds: fp4 e2m1 lacks 5, 7 and 8; every wider operand format
// holds them all), products up to 64, and sums of K <= 32 products plus |C| <= 64 stay below 2^11:
// exact in fp16 and in a 13-bit accumulator alike. D must therefore equal exact arithmetic whatever
// the rounding or alignment rules.
void generate_small_int(Tile& t) {
  auto int_value = [&](const FormatBits& f, int lo, int hi) {
    for (;;)  // a draw the format cannot hold is drawn again (0 always fits, so this ends)
      if (const auto bits = f.encode_exact(static_cast<double>(t.rng.uniform_int(lo, hi)))) return *bits;
  };
  for (int i = 0; i < t.M * t.K; ++i) t.a[i] = int_value(t.fa, -8, 8);
  for (int i = 0; i < t.K * t.N; ++i) t.b[i] = int_value(t.fb, -8, 8);
  for (int i = 0; i < t.M * t.N; ++i) t.c[i] = int_value(t.fc, -64, 64);
}

}  // namespace mmaemu::gen
