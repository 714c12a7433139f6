// Block-scaled instructions (Blackwell's kind::mxf8f6f4, mxf4, mxf4nvf4), the scale formats and the
// spellings of the new instruction families, on cases worked out by hand from the models' rules.
#include <gtest/gtest.h>

#include <vector>

#include "mmaemu/reference/model.hpp"

using namespace mmaemu::ref;

namespace {
constexpr uint32_t kE4m3One = 0x38;
constexpr uint32_t kFp4One = 0x2, kFp4Half = 0x1, kFp4Six = 0x7, kFp4MinusSix = 0xF;
constexpr uint32_t kUe8m0One = 127, kUe4m3One = 0x38;

uint32_t ue8m0(int e) { return static_cast<uint32_t>(127 + e); }
}  // namespace

TEST(ScaleFormats, Ue8m0IsAPowerOfTwoWithoutZeroAndWithOneNan) {
  for (uint32_t code = 0; code < 255; ++code) {
    const Decoded d = decode(FormatId::ue8m0, code);
    EXPECT_EQ(d.cls, ValueClass::normal) << code;
    EXPECT_EQ(d.exp, static_cast<int>(code) - 127) << code;
    EXPECT_EQ(d.sig, 1u) << code;
    EXPECT_FALSE(d.neg);
  }
  EXPECT_EQ(decode(FormatId::ue8m0, 255).cls, ValueClass::nan);
  EXPECT_EQ(canonical_nan(FormatId::ue8m0), 0xFFu);
  EXPECT_EQ(unit_scale_bits(FormatId::ue8m0), kUe8m0One);
}

TEST(ScaleFormats, Ue4m3IsE4m3WithoutItsSign) {
  EXPECT_EQ(spec(FormatId::ue4m3).storage_bits, 7);
  for (uint32_t code = 0; code < 0x7F; ++code) {
    const Decoded u = decode(FormatId::ue4m3, code), s = decode(FormatId::e4m3, code);
    EXPECT_EQ(u.cls, s.cls) << code;
    EXPECT_EQ(u.exp, s.exp) << code;
    EXPECT_EQ(u.sig, s.sig) << code;
    EXPECT_FALSE(u.neg);
  }
  EXPECT_EQ(decode(FormatId::ue4m3, 0x7F).cls, ValueClass::nan);
  EXPECT_EQ(decode(FormatId::ue4m3, 0).cls, ValueClass::zero);
  EXPECT_EQ(canonical_nan(FormatId::ue4m3), 0x7Fu);
  EXPECT_EQ(unit_scale_bits(FormatId::ue4m3), kUe4m3One);
}

TEST(InstructionSpelling, NewFamiliesReadBackAsWritten) {
  for (const char* name : {"mma.m16n8k32.kind::mxf8f6f4.block_scale.block32.f32.e4m3.e2m1.f32.ue8m0",
                           "mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3",
                           "tcgen05.mma.m128n8k32.kind::f8f6f4.f16.e3m2.e2m3",
                           "tcgen05.mma.m64n256k8.kind::tf32.f32.tf32.tf32",
                           "tcgen05.mma.m128n8k64.kind::mxf4.block_scale.block32.f32.e2m1.e2m1.ue8m0"}) {
    std::string why;
    const auto in = parse_instruction(name, &why);
    ASSERT_TRUE(in) << name << ": " << why;
    EXPECT_EQ(spell(*in), name);
  }
  const auto scaled = parse_instruction("mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3");
  ASSERT_TRUE(scaled && scaled->scale);
  EXPECT_EQ(scaled->scale->format, FormatId::ue4m3);
  EXPECT_EQ(scaled->scale->block, 16);
  EXPECT_EQ(scaled->kind, "mxf4nvf4");
  for (const char* bad : {"tcgen05.mma.m128n8k16.f32.f16.f16",  // tcgen05 needs its kind
                          "mma.m16n8k64.kind::mxf4.block_scale.block24.f32.e2m1.e2m1.f32.ue8m0",  // 24 does not divide 64
                          "mma.m16n8k64.kind::mxf4.block_scale.block32.f32.e2m1.e2m1.f32",  // the scale type is missing
                          "tcgen05.m128n8k16.kind::f16.f32.f16.f16"}) {
    std::string why;
    EXPECT_FALSE(parse_instruction(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(Catalogue, Tcgen05TakesEveryNAndExistsOnSm100Only) {
  const auto& m = lookup(Arch::sm100, "tcgen05.mma.m128n40k16.kind::f16.f32.bf16.bf16");
  EXPECT_EQ(m.instr.n, 40);
  EXPECT_EQ(m.block.block_k, 16);
  EXPECT_EQ(m.block.frac_bits, 25);
  EXPECT_EQ(lookup(Arch::sm100, "tcgen05.mma.m64n8k32.kind::f8f6f4.f32.e4m3.e5m2").block.block_k, 32);
  EXPECT_THROW(lookup(Arch::sm90, "tcgen05.mma.m128n8k16.kind::f16.f32.f16.f16"), UnsupportedInstruction);
  EXPECT_THROW(lookup(Arch::sm100, "tcgen05.mma.m128n12k16.kind::f16.f32.f16.f16"), UnsupportedInstruction);
}

TEST(BlockScaled, EachProductCarriesItsTwoScales) {
  const auto& m = lookup(Arch::sm120, "mma.m16n8k32.kind::mxf8f6f4.block_scale.block32.f32.e4m3.e4m3.f32.ue8m0");
  std::vector<uint32_t> a(32, 0), b(32, 0);
  a[0] = kE4m3One;
  b[0] = kE4m3One;
  uint32_t sa = ue8m0(3), sb = ue8m0(-1);
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, &sa, &sb), 0x40800000u);  // 1 * 1 * 8 * 0.5 = 4
  sa = 0;                                                            // 2^-127: the smallest scale is not zero
  sb = kUe8m0One;
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, &sa, &sb), 0x00400000u);  // 2^-127, an fp32 subnormal
  sa = 0xFF;                                                         // a NaN scale poisons the block ...
  a[0] = 0;                                                          // ... even when every product is zero
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, &sa, &sb), 0x7FFFFFFFu);
  EXPECT_THROW(dot(m, a.data(), b.data(), 0), std::invalid_argument);  // scales are not optional
}

// kind::mxf4nvf4: the products of 16 consecutive k are summed exactly, and the group joins the block at
// its scales' exponent even when its products cancel to zero: a cancelled group with large scales
// still sets the alignment, and a small group below it is truncated away.
TEST(BlockScaled, GroupsAlignAtTheirScalesEvenWhenTheirProductsCancel) {
  const auto& m = lookup(Arch::sm120, "mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3");
  EXPECT_EQ(m.block.group_k, 16);
  std::vector<uint32_t> a(64, 0), b(64, 0);
  a[0] = kFp4Six;       // group 0: 6*1 - 6*1 = 0
  a[1] = kFp4MinusSix;
  b[0] = b[1] = kFp4One;
  a[16] = b[16] = kFp4Half;  // group 1: 0.25
  // Group 0's scales 2^8 * 2^8 put emax at 16 (one unit of the F = 35 sum: 2^-19); group 1's scales
  // 2^-9 * 2^-9 (ue4m3's smallest subnormal) make it 0.25 * 2^-18 = 2^-20, below that unit.
  const uint32_t big = (8 + 7) << 3, tiny = 0x01;
  std::vector<uint32_t> sa = {big, tiny, kUe4m3One, kUe4m3One}, sb = {big, tiny, kUe4m3One, kUe4m3One};
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, sa.data(), sb.data()), 0x00000000u);
  // Without group 0's products it is a zero group, at the zero exponent (2^-139): 2^-20 survives.
  a[0] = a[1] = 0;
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, sa.data(), sb.data()), 0x35800000u);
  // A zero ue4m3 scale makes its group a zero term too.
  a[0] = kFp4Six;
  a[1] = kFp4Six;  // group 0 now 12, but scaled by zero
  sa[0] = 0;
  EXPECT_EQ(dot(m, a.data(), b.data(), 0, sa.data(), sb.data()), 0x35800000u);
}

TEST(BlockScaled, AGemmPadsItsLastScaleBlock) {
  // K = 40 with scales per 32: two scales per row, the second for k 32..39 only.
  const auto& m = lookup(Arch::sm120, "mma.m16n8k32.kind::mxf8f6f4.block_scale.block32.f32.e4m3.e4m3.f32.ue8m0");
  EXPECT_EQ(scale_count(m.instr, 40), 2u);
  std::vector<uint32_t> A(40, 0), B(40, 0), SA = {ue8m0(1), ue8m0(4)}, SB = {kUe8m0One, kUe8m0One};
  A[0] = B[0] = kE4m3One;    // 1 * 2
  A[39] = B[39] = kE4m3One;  // 1 * 16
  uint32_t C = 0, D = 0;
  gemm(m, 1, 1, 40, A.data(), B.data(), &C, &D, nullptr, SA.data(), SB.data());
  EXPECT_EQ(D, 0x41900000u);  // 18
}
