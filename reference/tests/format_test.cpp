// Formats: decoding, rounding and conversion against values worked out by hand and against the
// host's own IEEE fp32 arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "mmaemu/reference/format.hpp"

using namespace mmaemu::ref;

namespace {
double value_of(FormatId f, uint32_t bits) {
  const Decoded d = decode(f, bits);
  if (d.cls == ValueClass::nan) return NAN;
  if (d.cls == ValueClass::inf) return d.neg ? -INFINITY : INFINITY;
  const double v = std::ldexp(static_cast<double>(d.sig), d.exp - spec(f).man_bits);
  return d.neg ? -v : v;
}
}  // namespace

TEST(Format, DecodesKnownValues) {
  EXPECT_EQ(value_of(FormatId::fp16, 0x3C00), 1.0);
  EXPECT_EQ(value_of(FormatId::fp16, 0x0001), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(value_of(FormatId::fp16, 0x7BFF), 65504.0);
  EXPECT_EQ(value_of(FormatId::bf16, 0xC040), -3.0);
  EXPECT_EQ(value_of(FormatId::e4m3, 0x7E), 448.0);                     // e4m3 max finite
  EXPECT_EQ(decode(FormatId::e4m3, 0x7F).cls, ValueClass::nan);         // its only NaN
  EXPECT_EQ(decode(FormatId::e4m3, 0x78).cls, ValueClass::normal);      // no infinities
  EXPECT_EQ(value_of(FormatId::e5m2, 0x7B), 57344.0);
  EXPECT_EQ(decode(FormatId::e5m2, 0x7C).cls, ValueClass::inf);
  EXPECT_EQ(value_of(FormatId::e4m3, 0x01), std::ldexp(1.0, -9));
  // tf32 reads an fp32 pattern and ignores its 13 low fraction bits.
  EXPECT_EQ(value_of(FormatId::tf32, 0x3F801FFF), 1.0);
  EXPECT_EQ(value_of(FormatId::tf32, 0x3F802000), 1.0 + std::ldexp(1.0, -10));
}

// The OCP MX element formats, every code: fp4 e2m1's eight magnitudes are listed in the OCP
// Microscaling specification; fp6's follow from its exponent and fraction fields (bias 3 for e3m2,
// 1 for e2m3; no infinities, no NaN: the top exponent holds ordinary values).
TEST(Format, DecodesEveryFp4AndFp6Code) {
  const double e2m1[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  for (uint32_t c = 0; c < 16; ++c) EXPECT_EQ(value_of(FormatId::e2m1, c), (c & 8 ? -1 : 1) * e2m1[c & 7]) << c;
  for (uint32_t c = 0; c < 64; ++c) {
    const double sign = c & 0x20 ? -1 : 1;
    const uint32_t e3 = (c >> 2) & 7, f2 = c & 3;  // e3m2
    EXPECT_EQ(value_of(FormatId::e3m2, c), sign * (e3 ? std::ldexp(4 + f2, int(e3) - 3 - 2) : std::ldexp(f2, -2 - 2))) << c;
    const uint32_t e2 = (c >> 3) & 3, f3 = c & 7;  // e2m3
    EXPECT_EQ(value_of(FormatId::e2m3, c), sign * (e2 ? std::ldexp(8 + f3, int(e2) - 1 - 3) : std::ldexp(f3, -3))) << c;
    EXPECT_NE(decode(FormatId::e3m2, c).cls, ValueClass::nan);
    EXPECT_NE(decode(FormatId::e3m2, c).cls, ValueClass::inf);
  }
  EXPECT_EQ(value_of(FormatId::e3m2, 0x1F), 28.0);        // largest
  EXPECT_EQ(value_of(FormatId::e3m2, 0x01), 0.0625);      // smallest subnormal
  EXPECT_EQ(value_of(FormatId::e2m3, 0x1F), 7.5);
  EXPECT_EQ(value_of(FormatId::e2m3, 0x01), 0.125);
  EXPECT_EQ(*parse_format("e2m1"), FormatId::e2m1);
  EXPECT_EQ(*parse_format("e3m2"), FormatId::e3m2);
  EXPECT_EQ(*parse_format("e2m3"), FormatId::e2m3);
  // Converting up to fp32 is exact; fp32 values they cannot hold are refused.
  EXPECT_EQ(convert(FormatId::e2m1, 0xF, FormatId::fp32, Rounding::toward_zero), 0xC0C00000u);  // -6
  EXPECT_EQ(from_fp32_exact(FormatId::e2m1, 0x40400000u), std::optional<uint32_t>(0x5u));        // 3
  EXPECT_FALSE(from_fp32_exact(FormatId::e2m1, 0x40A00000u).has_value());                         // 5
}

TEST(Format, RoundToFp32MatchesHostOnRandomValues) {
  // Products of two fp32 values computed exactly in 128-bit integers, rounded by the reference,
  // must equal the host's IEEE multiply (nearest-even) for normal results.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
  for (int i = 0; i < 100000; ++i) {
    const float x = dist(rng), y = dist(rng);
    const Decoded a = decode(FormatId::fp32, std::bit_cast<uint32_t>(x));
    const Decoded b = decode(FormatId::fp32, std::bit_cast<uint32_t>(y));
    if (a.cls != ValueClass::normal || b.cls != ValueClass::normal) continue;
    const unsigned __int128 mag = static_cast<unsigned __int128>(a.sig) * b.sig;
    const uint32_t got = round_to_format(FormatId::fp32, a.neg != b.neg, mag, a.exp + b.exp - 46,
                                         Rounding::nearest_even);
    ASSERT_EQ(got, std::bit_cast<uint32_t>(x * y)) << x << " * " << y;
  }
}

TEST(Format, RoundingHandlesSubnormalsOverflowAndTies) {
  // 1.5 * 2^-24 in fp16: halfway between 1 and 2 subnormal ulps -> ties to even = 2 ulps.
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 3, -25, Rounding::nearest_even), 0x0002u);
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 3, -25, Rounding::toward_zero), 0x0001u);
  // 2.5 ulp -> 2 (tie to even), 3.5 -> 4.
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 5, -25, Rounding::nearest_even), 0x0002u);
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 7, -25, Rounding::nearest_even), 0x0004u);
  // 65520 rounds to Inf in fp16 (nearest), stays at 65504 toward zero unless RZ overflow -> Inf.
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 65520, 0, Rounding::nearest_even), 0x7C00u);
  EXPECT_EQ(round_to_format(FormatId::fp16, true, 65520, 0, Rounding::toward_zero), 0xFBFFu);
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 1u << 20, 0, Rounding::toward_zero, true), 0x7C00u);
  // Carry into a new binade: 2047.5 ulp-scale -> 2048 = 0x6800 in fp16.
  EXPECT_EQ(round_to_format(FormatId::fp16, false, 4095, -1, Rounding::nearest_even), 0x6800u);
  // e8m13 keeps 13 fraction bits of an fp32 pattern.
  EXPECT_EQ(round_to_format(FormatId::e8m13, false, (1u << 23) | 0x3FF, -23, Rounding::toward_zero),
            0x3F800000u);
}

TEST(Format, ConvertsBetweenFormats) {
  EXPECT_EQ(convert(FormatId::fp16, 0x3C00, FormatId::fp32, Rounding::toward_zero), 0x3F800000u);
  EXPECT_EQ(convert(FormatId::fp16, 0x7E00, FormatId::fp32, Rounding::toward_zero), 0x7FFFFFFFu);
  // tf32 keeps fraction bits 13..22: 0x1000 is a tie that goes to the even pattern (down), 0x3000
  // a tie from an odd one (up), 0x1001 is above the tie (up).
  EXPECT_EQ(convert(FormatId::fp32, 0x3F801000, FormatId::tf32, Rounding::nearest_even), 0x3F800000u);
  EXPECT_EQ(convert(FormatId::fp32, 0x3F803000, FormatId::tf32, Rounding::nearest_even), 0x3F804000u);
  EXPECT_EQ(convert(FormatId::fp32, 0x3F801001, FormatId::tf32, Rounding::nearest_even), 0x3F802000u);
  EXPECT_EQ(convert(FormatId::fp32, 0x3F800FFF, FormatId::tf32, Rounding::nearest_even), 0x3F800000u);
  EXPECT_EQ(from_fp32_exact(FormatId::e4m3, 0x43E00000), 0x7Eu);  // 448
  EXPECT_FALSE(from_fp32_exact(FormatId::e4m3, 0x3F810000).has_value());
  EXPECT_FALSE(from_fp32_exact(FormatId::e4m3, 0x7F800000).has_value());  // e4m3 has no Inf
}

TEST(Format, ParsesNames) {
  EXPECT_EQ(parse_format("f16"), FormatId::fp16);
  EXPECT_EQ(parse_format("bf16"), FormatId::bf16);
  EXPECT_EQ(parse_format("f64"), FormatId::fp64);
  EXPECT_FALSE(parse_format("fp128").has_value());
}
