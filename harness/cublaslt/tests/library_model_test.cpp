// The library model's rules (reference/library_gemm.hpp) on inputs whose results are known
// independently: exact small integers, std::fma for the epilogue forms, hand-rounded tf32 operands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::ref {
namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t bf16_of(float f) { return bits_of(f) >> 16; }  // exact for the small integers used here

// A x B with A[m][k] = (k % 7) - 3 and B[k][n] = ((k + n) % 5) - 2: every partial sum an exact integer.
struct IntegerGemm {
  LibraryCall call;
  std::vector<uint32_t> a, b, c;
  explicit IntegerGemm(size_t K, float alpha, float beta, float c_value) {
    call.a = call.b = FormatId::bf16;
    call.c = call.d = FormatId::fp32;
    call.M = 1;
    call.N = 2;
    call.K = K;
    call.alpha = alpha;
    call.beta = beta;
    for (size_t k = 0; k < K; ++k) a.push_back(bf16_of(static_cast<float>(static_cast<int>(k % 7) - 3)));
    for (size_t k = 0; k < K; ++k)
      for (size_t n = 0; n < 2; ++n) b.push_back(bf16_of(static_cast<float>(static_cast<int>((k + n) % 5) - 2)));
    c = {bits_of(c_value), bits_of(c_value)};
  }
  float exact_sum(size_t n) const {
    float s = 0;
    for (size_t k = 0; k < call.K; ++k) s += float_of(a[k] << 16) * float_of(b[k * 2 + n] << 16);
    return s;
  }
  std::vector<uint32_t> run(int split_k) const {
    std::vector<uint32_t> d(2);
    LibraryAlgo algo;
    algo.split_k = split_k;
    library_gemm(call, algo, a.data(), b.data(), c.data(), d.data());
    return d;
  }
};

TEST(LibraryModel, EpilogueFormDependsOnSplitK) {
  // alpha and beta inexact; C chosen (by search, from 1/3 upwards) so that fma(alpha, acc, beta*C) and
  // fma(beta, C, alpha*acc) round differently for the first output: the test can tell the forms apart.
  const float alpha = 0.1f, beta = 0.3f;
  const float acc0 = IntegerGemm(1000, alpha, beta, 0.0f).exact_sum(0);
  float cval = 1.0f / 3.0f;
  for (int i = 0; i < 1000 && std::fma(alpha, acc0, beta * cval) == std::fma(beta, cval, alpha * acc0); ++i)
    cval = std::nextafter(cval, 1.0f);
  ASSERT_NE(std::fma(alpha, acc0, beta * cval), std::fma(beta, cval, alpha * acc0));
  const IntegerGemm g(1000, alpha, beta, cval);
  const auto one = g.run(1), three = g.run(3);
  for (size_t n = 0; n < 2; ++n) {
    const float acc = g.exact_sum(n);
    EXPECT_EQ(one[n], bits_of(std::fma(alpha, acc, beta * cval))) << n;
    EXPECT_EQ(three[n], bits_of(std::fma(beta, cval, alpha * acc))) << n;
  }
  EXPECT_NE(one[0], three[0]);
}

TEST(LibraryModel, BetaZeroLeavesCUnread) {
  IntegerGemm g(64, 2.0f, 0.0f, 0.0f);
  g.c = {0x7FC00000u, 0x7FC00000u};  // NaN in C must not reach D when beta = 0
  const auto d = g.run(1);
  for (size_t n = 0; n < 2; ++n) EXPECT_EQ(d[n], bits_of(2.0f * g.exact_sum(n)));
}

TEST(LibraryModel, SplitKChunksFollowTheGrain) {
  LibraryCall c;
  c.a = c.b = FormatId::bf16;
  c.K = 4096;
  EXPECT_EQ(split_grain(c, {}), 64u);
  EXPECT_EQ(split_chunk(c, {3, 0}), 1408u);  // ceil(64 / 3) = 22 grains
  c.K = 12000;
  EXPECT_EQ(split_chunk(c, {9, 0}), 1344u);  // ceil(ceil(12000 / 64) / 9) = 21 grains
  c.a = c.b = FormatId::e4m3;
  c.K = 32768;
  EXPECT_EQ(split_grain(c, {}), 128u);
  EXPECT_EQ(split_chunk(c, {12, 0}), 2816u);
  c.a = c.b = FormatId::tf32;
  EXPECT_EQ(split_grain(c, {}), 32u);
  // tf32 and fp32 kernels with K no multiple of 32: 16-byte grains, chunk = ceil(K / S) rounded up to 4.
  c.K = 1040;
  EXPECT_EQ(split_grain(c, {}), 4u);
  EXPECT_EQ(split_chunk(c, {24, 16}), 44u);
  c.a = c.b = FormatId::fp32;
  EXPECT_EQ(split_chunk(c, {32, 8}), 36u);
  EXPECT_EQ(split_chunk(c, {132, 8}), 8u);
  c.K = 32768;
  EXPECT_EQ(split_chunk(c, {66, 8}), 512u);
}

TEST(LibraryModel, Tf32OperandsAreRoundedToNearestEven) {
  LibraryCall c;
  c.a = c.b = FormatId::tf32;
  c.c = c.d = FormatId::fp32;
  c.M = c.N = c.K = 1;
  const uint32_t one = bits_of(1.0f);
  const uint32_t C = 0;
  uint32_t d = 0;
  // 1 + 3 * 2^-11: halfway between 1 + 2^-10 and 1 + 2^-9, ties to even: 1 + 2^-9 (truncation: 1 + 2^-10).
  const uint32_t tie_up = 0x3F803000u;
  library_gemm(c, {}, &tie_up, &one, &C, &d);
  EXPECT_EQ(d, 0x3F804000u);
  // 1 + 2^-11: halfway between 1 and 1 + 2^-10: ties to even, 1.
  const uint32_t tie_down = 0x3F801000u;
  library_gemm(c, {}, &tie_down, &one, &C, &d);
  EXPECT_EQ(d, one);
}

TEST(LibraryModel, RefusesWhatTheLibraryRefuses) {
  LibraryCall c;
  c.a = c.b = FormatId::e5m2;
  c.K = 64;
  EXPECT_TRUE(library_refuses(c));
  c.b = FormatId::e4m3;
  EXPECT_FALSE(library_refuses(c));
  c.K = 1000;
  EXPECT_TRUE(library_refuses(c));
  c.a = FormatId::e4m3;
  c.d = FormatId::bf16;
  c.fast_accum = true;
  EXPECT_FALSE(library_refuses(c));  // algorithm 62
  c.d = FormatId::fp32;
  EXPECT_TRUE(library_refuses(c));
  c.a = c.b = FormatId::bf16;
  EXPECT_FALSE(library_refuses(c));
}

}  // namespace
}  // namespace mmaemu::ref
