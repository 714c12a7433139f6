// cancellation, dominant, carry_chain: inputs aimed at how the products are aligned and summed.
#include <array>
#include <cmath>

#include "generators/tile.hpp"

namespace mmaemu::gen {

// Pairs of columns k0 = 2j, k1 = 2j+1 with A(m,k1) = -A(m,k0) and B(k1,n) = B(k0,n) make the two
// products cancel exactly for every output (m, n); flipping B's last fraction bit leaves a one-ulp
// residue. The remaining pairs are small terms whose sum is what survives.
void generate_cancellation(Tile& t) {
  const int big = std::min(t.safe_operand_exp(2), 8);
  auto big_value = [&](const FormatBits& f) { return t.normal(f, [&] { return big - t.rng.uniform_int(0, 1); }); };
  auto small_value = [&](const FormatBits& f) {
    return t.normal(f, [&] { return big - t.rng.uniform_int(4, 12); });
  };
  const uint32_t a_sign = 1u << (t.fa.width() - 1);
  for (int k0 = 0; k0 + 1 < t.K; k0 += 2) {
    const int k1 = k0 + 1;
    const double u = t.rng.uniform01();
    if (u < 0.75) {
      const bool near = u >= 0.5;
      for (int m = 0; m < t.M; ++m) {
        t.A(m, k0) = big_value(t.fa);
        t.A(m, k1) = t.A(m, k0) ^ a_sign;
      }
      for (int n = 0; n < t.N; ++n) {
        t.B(k0, n) = big_value(t.fb);
        t.B(k1, n) = near ? t.B(k0, n) ^ t.fb.ulp_bit() : t.B(k0, n);
      }
    } else {
      for (int m = 0; m < t.M; ++m) t.A(m, k0) = small_value(t.fa), t.A(m, k1) = small_value(t.fa);
      for (int n = 0; n < t.N; ++n) t.B(k0, n) = small_value(t.fb), t.B(k1, n) = small_value(t.fb);
    }
  }
  if (t.K % 2) {  // odd K: the last column is a residue term
    for (int m = 0; m < t.M; ++m) t.A(m, t.K - 1) = small_value(t.fa);
    for (int n = 0; n < t.N; ++n) t.B(t.K - 1, n) = small_value(t.fb);
  }
  for (int m = 0; m < t.M; ++m)
    for (int n = 0; n < t.N; ++n) {
      const double u = t.rng.uniform01();
      if (u < 0.3) {
        t.C(m, n) = t.normal(t.fc, [&] { return 2 * big - t.rng.uniform_int(6, 20); });
      } else if (u < 0.7) {
        // C = -(sum of the products), rounded: the result is what the hardware's sum loses.
        double sum = 0;
        for (int k = 0; k < t.K; ++k) sum += t.fa.to_double(t.A(m, k)) * t.fb.to_double(t.B(k, n));
        t.C(m, n) = sum != 0 && std::isfinite(sum) ? t.fc.encode_nearest(-sum)
                                                   : t.normal(t.fc, [&] { return 2 * big; });
      } else {
        t.C(m, n) = t.normal(t.fc, [&] { return 2 * big + t.rng.uniform_int(-1, 1); });
      }
    }
}

// Column k* of A and row k* of B are large, so product k* dominates every output; the others sit a
// random 1..span binades lower (per element), or C dominates instead.
void generate_dominant(Tile& t) {
  const int top = t.safe_operand_exp(3);
  const int high = t.rng.chance(0.25) ? top : std::min(top, t.rng.uniform_int(2, 12));
  const int span = std::array{3, 8, 16, 30}[t.rng.uniform_int(0, 3)];
  const bool c_dominates = t.rng.chance(0.25);
  const int k_star = t.rng.uniform_int(0, t.K - 1);
  auto value = [&](const FormatBits& f, bool large) {
    const int exp = large ? high - t.rng.uniform_int(0, 1) : high - t.rng.uniform_int(1, span);
    return t.normal(f, [&] { return exp; });
  };
  for (int m = 0; m < t.M; ++m)
    for (int k = 0; k < t.K; ++k) t.A(m, k) = value(t.fa, k == k_star && !c_dominates);
  for (int k = 0; k < t.K; ++k)
    for (int n = 0; n < t.N; ++n) t.B(k, n) = value(t.fb, k == k_star && !c_dominates);
  for (int i = 0; i < t.M * t.N; ++i) {
    if (t.rng.chance(0.1)) {
      t.c[i] = t.fc.zero(t.sign());
      continue;
    }
    const int exp = c_dominates ? 2 * high + t.rng.uniform_int(0, 3) : 2 * high - t.rng.uniform_int(2, 2 * span);
    t.c[i] = t.normal(t.fc, [&] { return exp; });
  }
}

// All-ones significands (1.11...1 * 2^e) summed at one exponent or staggered by 1, 2 or 4 binades:
// the aligned sum carries through every bit, and C just below a power of two (or its negative) makes
// the carry (or borrow) reach the next binade.
void generate_carry_chain(Tile& t) {
  const int base = std::min(t.safe_operand_exp(2), t.rng.uniform_int(0, 4));
  const int stagger = std::array{0, 1, 2, 4}[t.rng.uniform_int(0, 3)];
  const int b_mode = t.rng.uniform_int(0, 2);
  const bool mixed_signs = t.rng.chance(0.15);
  auto sign = [&] { return mixed_signs && t.sign(); };
  for (int m = 0; m < t.M; ++m)
    for (int k = 0; k < t.K; ++k) t.A(m, k) = t.fa.all_ones(sign(), base - (stagger ? k % (stagger + 1) : 0));
  for (int k = 0; k < t.K; ++k)
    for (int n = 0; n < t.N; ++n) {
      t.B(k, n) = b_mode == 0   ? t.fb.normal(sign(), 0, 0)
                  : b_mode == 1 ? t.fb.all_ones(sign(), 0)
                                : [&] {
                                    const int e = -t.rng.uniform_int(0, 3);  // drawn before the sign (Tile::normal says why)
                                    return t.fb.normal(sign(), e, 0);
                                  }();
    }
  for (int i = 0; i < t.M * t.N; ++i) {
    const double u = t.rng.uniform01();
    if (u < 0.5) {
      const int e = 2 * base + t.rng.uniform_int(-2, 1);  // drawn before the sign (Tile::normal says why)
      t.c[i] = t.fc.all_ones(sign(), e);
    }
    else if (u < 0.75) t.c[i] = t.fc.zero(false);
    else if (u < 0.9) t.c[i] = t.fc.all_ones(false, 2 * base + t.log2_k() + 1);  // carry into 2^(e+1)
    else t.c[i] = t.fc.normal(true, 2 * base + t.log2_k() + 2, 0);               // borrow from -2^e
  }
}

}  // namespace mmaemu::gen
