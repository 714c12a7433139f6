// The T-FDPA model on cases whose answer follows from the published rules by hand, and the
// profile catalogue's acceptance and rejection of instructions.
#include <gtest/gtest.h>

#include <vector>

#include "mmaemu/reference/model.hpp"

using namespace mmaemu::ref;

namespace {
constexpr uint32_t kOne16 = 0x3C00, kTwo16 = 0x4000, kZero16 = 0x0000;
}

TEST(Model, SmallIntegersAreExact) {
  const auto& m = lookup(Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32");
  std::vector<uint32_t> a(16, kTwo16), b(16, kOne16);
  // 16 * (2*1) + 3 = 35
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x40400000), 0x420C0000u);
}

TEST(Model, SmallTermsAreTruncatedRelativeToTheLargest) {
  // Hopper fp16: F = 25 fraction bits relative to the largest term, then RZ to fp32.
  const auto& m = lookup(Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32");
  std::vector<uint32_t> a(16, kZero16), b(16, kOne16);
  a[0] = 0x3C00;                   // 1
  a[1] = 0x0001;                   // 2^-24 (subnormal) * 1
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x3F800000u);  // 1 + 2^-24 truncated to 1 (RZ fp32)
  a[1] = 0x1400;                   // 2^-10
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x3F802000u);  // 1 + 2^-10 exact
  // A term below 2^(emax-25) vanishes even where fp32 could hold the sum: 2^-26 * 1 with c = 1.
  a[0] = 0x0000;
  a[1] = 0x0400;                   // 2^-14
  b[1] = 0x0C00;                   // 2^-12 -> product 2^-26
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x3F800000), 0x3F800000u);
  // ... while the same product without the large addend is exact.
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x32800000u);
}

TEST(Model, SpecialsPropagate) {
  const auto& m = lookup(Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32");
  std::vector<uint32_t> a(16, kOne16), b(16, kOne16);
  a[3] = 0x7C00;  // +Inf
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x7F800000u);
  b[3] = 0x0000;  // Inf * 0
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x7FFFFFFFu);
  b[3] = kOne16;
  EXPECT_EQ(dot(m, a.data(), b.data(), 0xFF800000), 0x7FFFFFFFu);  // Inf - Inf
}

TEST(Model, BlocksChainAlongK) {
  // Ampere fp16 m16n8k16 runs as two blocks of 8: block 1 = c + 8 products is rounded to fp32
  // before block 2 adds its 8. With c = 2^24 and block 1's products = 1 each, block 1 gives
  // 2^24 + 8 exactly; block 2's -2^24 then leaves 8. A single 16-block would give the same, so
  // add a term that block 1's rounding loses: c = 2^25, one product 1 in block 1 -> 2^25 + 1
  // rounds (RZ, fp32) to 2^25; block 2 then subtracts 2^25 -> 0. One 16-wide block would keep it.
  const auto& m = lookup(Arch::sm80, "mma.m16n8k16.f32.f16.f16.f32");
  EXPECT_EQ(m.block.block_k, 8);
  std::vector<uint32_t> a(16, kZero16), b(16, kOne16);
  a[0] = kOne16;
  a[8] = 0xF800;                   // -32768
  b[8] = 0x6400;                   // 1024 -> -2^25
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x4C000000 /* 2^25 */), 0x00000000u);
  const auto& hopper = lookup(Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32");  // one 16-wide block
  EXPECT_EQ(dot(hopper, a.data(), b.data(), 0x4C000000), 0x3F800000u);
}

TEST(Profiles, RejectInstructionsAnArchitectureLacks) {
  EXPECT_THROW(lookup(Arch::sm80, "wgmma.m64n8k16.f32.f16.f16"), UnsupportedInstruction);
  EXPECT_THROW(lookup(Arch::sm80, "mma.m16n8k32.f32.e4m3.e4m3.f32"), UnsupportedInstruction);
  EXPECT_THROW(lookup(Arch::sm90, "mma.m16n8k16.f16.bf16.bf16.f16"), UnsupportedInstruction);
  EXPECT_THROW(lookup(Arch::sm90, "mma.m16n8k16.f32.f16"), std::invalid_argument);
  EXPECT_NO_THROW(lookup(Arch::sm90, "wgmma.m64n8k32.f32.e5m2.e4m3"));
  EXPECT_EQ(lookup(Arch::sm90, "wgmma.m64n24k16.f32.bf16.bf16").instr.n, 24);
  EXPECT_THROW(lookup(Arch::sm90, "wgmma.m64n12k16.f32.bf16.bf16"), UnsupportedInstruction);
}

TEST(Model, LoweredFp8AddsCLastByRoundingToNearest) {
  // Hopper mma.sync FP8 = two fp16 HMMAs (k % 4 in {0,1}, then {2,3}) chained from +0, then + c by
  // an IEEE addition. Products 2^-17 (k = 0) and 2^-18 (k = 2) with c = 128: the addition sees
  // 128 + 1.5 * 2^-17, above half an ulp (2^-17), and rounds up; a fused block with c inside would
  // truncate toward zero and give 128.
  const auto& m = lookup(Arch::sm90, "mma.m16n8k32.f32.e4m3.e4m3.f32");
  ASSERT_TRUE(m.lowering.has_value());
  std::vector<uint32_t> a(32, 0x00), b(32, 0x00);
  a[0] = 0x02, b[0] = 0x01;  // 2^-8 * 2^-9
  a[2] = 0x01, b[2] = 0x01;  // 2^-9 * 2^-9
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x43000000 /* 128 */), 0x43000001u);
  const auto& wg = lookup(Arch::sm90, "wgmma.m64n8k32.f32.e4m3.e4m3");  // the fused FP8 unit
  EXPECT_EQ(dot(wg, a.data(), b.data(), 0x43000000), 0x43000000u);
}

TEST(Profiles, EveryArchitectureHasInstructions) {
  for (Arch a : all_archs()) {
    EXPECT_FALSE(instructions_of(a).empty()) << arch_name(a);
    for (const auto& m : instructions_of(a)) {
      if (m.lowering) {  // each part runs as an instruction of the same architecture, K split evenly
        ASSERT_NE(m.lowering->via_model, nullptr) << m.instr.name;
        EXPECT_EQ(m.lowering->via_model->instr.k * m.lowering->parts, m.instr.k) << m.instr.name;
      } else if (m.fma_chain) {  // fp64: no block, every element two words
        EXPECT_EQ(m.instr.a, FormatId::fp64) << m.instr.name;
        EXPECT_EQ(m.block.block_k, 0) << m.instr.name;
      } else {
        EXPECT_GT(m.block.block_k, 0) << m.instr.name;
      }
      EXPECT_EQ(&lookup(a, m.instr.name), &m) << m.instr.name;
    }
  }
}

TEST(Gemm, ChainsInstructionsAlongKWithZeroPadding) {
  // K = 40 with m16n8k16 (3 steps, the last padded with zeros) equals chaining dot() by hand.
  const auto& m = lookup(Arch::sm80, "mma.m16n8k16.f32.f16.f16.f32");
  const size_t M = 3, N = 2, K = 40;
  std::vector<uint32_t> A(M * K), B(K * N), C(M * N), D(M * N), trace(M * N * 3);
  uint32_t x = 12345;
  auto next = [&x] { x = x * 1103515245u + 12345u; return (x >> 8) & 0x3FFFu; };  // |v| < 2, both signs
  for (auto& v : A) v = next() | ((next() & 1) << 15);
  for (auto& v : B) v = next();
  for (auto& v : C) v = 0x3F800000u + (next() << 4);
  gemm(m, M, N, K, A.data(), B.data(), C.data(), D.data(), trace.data());
  EXPECT_EQ(gemm_steps(m, K), 3u);
  for (size_t r = 0; r < M; ++r)
    for (size_t n = 0; n < N; ++n) {
      uint32_t acc = C[r * N + n];
      for (size_t s = 0; s < 3; ++s) {
        uint32_t a[16] = {}, b[16] = {};
        for (size_t i = 0; i < 16 && s * 16 + i < K; ++i) {
          a[i] = A[r * K + s * 16 + i];
          b[i] = B[(s * 16 + i) * N + n];
        }
        acc = dot(m, a, b, acc);
        EXPECT_EQ(trace[(r * N + n) * 3 + s], acc);
      }
      EXPECT_EQ(D[r * N + n], acc);
    }
}

TEST(Model, ZeroProductsAlignAtTheProfilesFixedExponent) {
  // Hopper bf16: a zero product (or a zero c) counts as a term of exponent -133 when the block finds
  // its largest exponent, so that with F = 25 the terms are truncated at 2^-158 even when every
  // non-zero product is smaller. Products 2^-148 and -1.5 * 2^-159: the latter is 0.75 of a unit at
  // 2^-158 and is truncated away, leaving 2^-148 (fp32 subnormal 0x00000002). Without the fixed
  // exponent (or with it one lower) the small term would survive and RZ would give 0x00000001.
  const auto& m = lookup(Arch::sm90, "mma.m16n8k16.f32.bf16.bf16.f32");
  ASSERT_EQ(m.block.zero_product_exp, -133);
  std::vector<uint32_t> a(16, 0x0000), b(16, 0x0000);
  a[0] = 0x1A80, b[0] = 0x1A80;  // 2^-74 * 2^-74
  a[1] = 0x97C0, b[1] = 0x1800;  // -1.5 * 2^-80 * 2^-79
  EXPECT_EQ(dot(m, a.data(), b.data(), 0), 0x00000002u);
}

TEST(Model, AnAllZeroBlockIsNegativeOnlyWhenEveryTermIsMinusZero) {
  const auto& m = lookup(Arch::sm80, "mma.m16n8k16.f32.f16.f16.f32");  // IEEE's zero sign (MMA-Sim's model)
  std::vector<uint32_t> a(16, 0x8000), b(16, kZero16);  // every product -0
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x80000000), 0x80000000u);
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x00000000), 0x00000000u);
  b[5] = 0x8000;  // one product +0
  EXPECT_EQ(dot(m, a.data(), b.data(), 0x80000000), 0x00000000u);
}

// The H200 returns +0 when every term is -0 (every block instruction, `mmaemu probe`'s zero-sign cases,
// reports/h200/probe), and no H200 recording holds a -0 result: Hopper's zero results are +0.
TEST(Model, HopperZeroResultsArePositive) {
  for (const char* name : {"mma.m16n8k16.f32.f16.f16.f32", "wgmma.m64n8k32.f32.e4m3.e4m3", "mma.m16n8k16.f16.f16.f16.f16"}) {
    const auto& m = lookup(Arch::sm90, name);
    std::vector<uint32_t> a(m.instr.k, m.instr.a == FormatId::e4m3 ? 0x80u : 0x8000u), b(m.instr.k, 0);
    b.assign(m.instr.k, m.instr.b == FormatId::e4m3 ? 0x38u : 0x3C00u);  // -0 * 1
    const uint32_t c = m.instr.c == FormatId::fp16 ? 0x8000u : 0x80000000u;
    EXPECT_EQ(dot(m, a.data(), b.data(), c), 0u) << name;
  }
}

TEST(Gemm, PaddingPastKIsPlusZero) {
  // K = 1: the step's other 15 products are padding, +0 * +0 = +0, so a -0 product and a -0 c give +0.
  const auto& m = lookup(Arch::sm80, "mma.m16n8k16.f32.f16.f16.f32");
  const uint32_t A[1] = {0x8000}, B[1] = {kZero16}, C[1] = {0x80000000};
  uint32_t D[1] = {};
  gemm(m, 1, 1, 1, A, B, C, D);
  EXPECT_EQ(D[0], 0x00000000u);
}
