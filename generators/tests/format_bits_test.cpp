#include "generators/format_bits.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace mmaemu::gen {
namespace {

using ref::FormatId;

TEST(FormatBits, DecodesKnownPatterns) {
  EXPECT_EQ(FormatBits(FormatId::fp16).to_double(0x3C00), 1.0);
  EXPECT_EQ(FormatBits(FormatId::fp16).to_double(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(FormatBits(FormatId::bf16).to_double(0xBF80), -1.0);
  EXPECT_EQ(FormatBits(FormatId::e4m3).to_double(0x7E), 448.0);
  EXPECT_TRUE(std::isnan(FormatBits(FormatId::e4m3).to_double(0x7F)));
  EXPECT_EQ(FormatBits(FormatId::e5m2).to_double(0x7B), 57344.0);
  EXPECT_TRUE(std::isinf(FormatBits(FormatId::e5m2).to_double(0x7C)));
  // tf32 reads its 10 value bits only; the low 13 bits of the fp32 pattern carry no value.
  EXPECT_EQ(FormatBits(FormatId::tf32).to_double(0x3F801FFF), 1.0);
}

TEST(FormatBits, BuildsSpecialPatterns) {
  const FormatBits e4m3(FormatId::e4m3), fp16(FormatId::fp16), fp32(FormatId::fp32);
  EXPECT_EQ(e4m3.nan(false, 3), 0x7Fu);
  EXPECT_EQ(e4m3.nan(true, 0), 0xFFu);
  EXPECT_EQ(e4m3.max_finite(false), 0x7Eu);
  EXPECT_EQ(e4m3.inf(true), 0xFEu);  // no Inf: max finite stands in
  EXPECT_EQ(e4m3.normal(false, 8, 7), 0x7Eu);  // never produces the NaN code by accident
  EXPECT_EQ(fp16.inf(true), 0xFC00u);
  EXPECT_EQ(fp16.max_finite(false), 0x7BFFu);
  EXPECT_EQ(fp32.min_subnormal(false), 1u);
  EXPECT_EQ(fp32.emax(), 127);
  EXPECT_EQ(e4m3.emax(), 8);
  EXPECT_EQ(FormatBits(FormatId::e5m2).emax(), 15);
  EXPECT_EQ(FormatBits(FormatId::tf32).ulp_bit(), 1u << 13);
}

TEST(FormatBits, EncodeNearestRoundTripsEveryNarrowPattern) {
  for (FormatId f : {FormatId::fp16, FormatId::bf16, FormatId::e4m3, FormatId::e5m2}) {
    const FormatBits fb(f);
    for (uint32_t x = 0; x <= fb.storage_mask(); ++x) {
      if (fb.is_nan(x)) continue;
      ASSERT_EQ(fb.encode_nearest(fb.to_double(x)), x) << fb.width() << "-bit pattern " << x;
    }
  }
}

TEST(FormatBits, EncodeNearestRoundsToEvenAndOverflows) {
  const FormatBits fp16(FormatId::fp16);
  EXPECT_EQ(fp16.encode_nearest(1.0 + std::ldexp(1.0, -11)), 0x3C00u);      // tie -> even
  EXPECT_EQ(fp16.encode_nearest(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);  // tie -> even (up)
  EXPECT_EQ(fp16.encode_nearest(70000.0), 0x7C00u);
  EXPECT_EQ(fp16.encode_nearest(std::ldexp(1.0, -25) * 1.5), 0x0001u);
  EXPECT_EQ(FormatBits(FormatId::e4m3).encode_nearest(1000.0), 0x7Eu);
  EXPECT_FALSE(FormatBits(FormatId::e5m2).encode_exact(9.0).has_value());
  EXPECT_EQ(*FormatBits(FormatId::e5m2).encode_exact(-7.0), 0xC7u);
}

}  // namespace
}  // namespace mmaemu::gen
