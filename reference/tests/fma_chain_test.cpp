// fp64 mma (an IEEE fma chain, c first, k ascending, NaN payloads as the H200's) and the m8n8k4 whose C is fp16 and
// D fp32, on cases worked out by hand.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "mmaemu/reference/model.hpp"

using namespace mmaemu::ref;

namespace {

// K doubles (or M*N) as words, two per element, low word first.
std::vector<uint32_t> words(std::initializer_list<double> xs) {
  std::vector<uint32_t> w;
  for (double x : xs) {
    const uint64_t b = std::bit_cast<uint64_t>(x);
    w.push_back(static_cast<uint32_t>(b));
    w.push_back(static_cast<uint32_t>(b >> 32));
  }
  return w;
}
uint64_t element(const std::vector<uint32_t>& w, size_t i) { return uint64_t{w[2 * i]} | uint64_t{w[2 * i + 1]} << 32; }

// D of a 1 x 1 GEMM of K = 4 (one m8n8k4 step) over a, b and c.
uint64_t one_output(std::initializer_list<double> a, std::initializer_list<double> b, double c) {
  const InstructionModel& m = lookup(Arch::sm80, "mma.m8n8k4.f64.f64.f64.f64");
  const auto A = words(a), B = words(b), C = words({c});
  std::vector<uint32_t> D(2);
  gemm(m, 1, 1, 4, A.data(), B.data(), C.data(), D.data());
  return element(D, 0);
}
uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }

}  // namespace

TEST(Fp64Mma, CatalogueHasAmperesShapeEverywhereAndHoppersOwnOnSm90) {
  EXPECT_TRUE(lookup(Arch::sm80, "mma.m8n8k4.f64.f64.f64.f64").fma_chain);
  EXPECT_TRUE(lookup(Arch::sm120, "mma.m8n8k4.f64.f64.f64.f64").fma_chain);
  for (const char* k : {"4", "8", "16"})
    EXPECT_TRUE(lookup(Arch::sm90, std::string("mma.m16n8k") + k + ".f64.f64.f64.f64").fma_chain);
  EXPECT_THROW(lookup(Arch::sm100, "mma.m16n8k16.f64.f64.f64.f64"), UnsupportedInstruction);
  EXPECT_THROW(lookup(Arch::sm75, "mma.m8n8k4.f64.f64.f64.f64"), UnsupportedInstruction);
  EXPECT_EQ(words_per_element(FormatId::fp64), 2);
  EXPECT_THROW(decode(FormatId::fp64, 0), std::invalid_argument);
}

TEST(Fp64Mma, CJoinsFirstAndTheChainRoundsAfterEveryProduct) {
  // 1 + 2^60 rounds to 2^60 (its ulp is 2^8), then - 2^60 gives 0; c added last would give 1.
  EXPECT_EQ(one_output({0x1p60, -0x1p60, 0, 0}, {1, 1, 0, 0}, 1.0), bits(0.0));
  // In k order: 2^60 + 1 rounds away the 1 before -2^60 arrives.
  EXPECT_EQ(one_output({0x1p60, 1, -0x1p60, 0}, {1, 1, 1, 0}, 0.0), bits(0.0));
  EXPECT_EQ(one_output({1, 0x1p60, -0x1p60, 0}, {1, 1, 1, 0}, 0.0), bits(0.0));
  EXPECT_EQ(one_output({0x1p60, -0x1p60, 1, 0}, {1, 1, 1, 0}, 0.0), bits(1.0));
}

TEST(Fp64Mma, EachProductIsFusedWithTheAccumulator) {
  // (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 exactly: fused, not the product's rounding (which gives 0).
  EXPECT_EQ(one_output({1 + 0x1p-52, 0, 0, 0}, {1 - 0x1p-52, 0, 0, 0}, -1.0), bits(-0x1p-104));
}

TEST(Fp64Mma, SubnormalsAreKeptAndSignedZerosFollowIeee) {
  EXPECT_EQ(one_output({0x1p-600, 0, 0, 0}, {0x1p-470, 0, 0, 0}, 0.0), bits(0x1p-1070));
  // -0 + (+0 * +0) = +0 under round to nearest; -0 * +0 + -0 = -0, and the zero products after it keep it.
  EXPECT_EQ(one_output({0, 0, 0, 0}, {0, 0, 0, 0}, -0.0), bits(0.0));
  EXPECT_EQ(one_output({-0.0, -0.0, -0.0, -0.0}, {0, 0, 0, 0}, -0.0), bits(-0.0));
}

TEST(Fp64Mma, NanPayloadsTravelAsTheH200Gives) {
  const auto nan = [](uint64_t b) { return std::bit_cast<double>(b); };
  const double inf = std::numeric_limits<double>::infinity();
  // A signalling NaN comes out quieted, sign and payload kept.
  EXPECT_EQ(one_output({nan(0xFFF0000000000001), 0, 0, 0}, {1, 0, 0, 0}, 1.0), 0xFFF8000000000001ull);
  // b's NaN before the accumulator's, the accumulator's before a's.
  EXPECT_EQ(one_output({nan(0x7FF0000000000A00), 0, 0, 0}, {nan(0x7FF00000000000B0), 0, 0, 0}, nan(0x7FF000000000000C)),
            0x7FF80000000000B0ull);
  EXPECT_EQ(one_output({nan(0x7FF0000000000A00), 0, 0, 0}, {1, 0, 0, 0}, nan(0x7FF000000000000C)), 0x7FF800000000000Cull);
  // A later b's NaN replaces the accumulator's: the last NaN of B along k wins.
  EXPECT_EQ(one_output({1, 1, 1, 1}, {nan(0x7FF0000000000001), 1, nan(0x7FF0000000000002), 1}, 0.0), 0x7FF8000000000002ull);
  // inf * 0 and inf - inf on NaN-free operands: the negative default NaN.
  EXPECT_EQ(one_output({inf, 0, 0, 0}, {0, 0, 0, 0}, 1.0), 0xFFF8000000000000ull);
  EXPECT_EQ(one_output({inf, 0, 0, 0}, {1, 0, 0, 0}, -inf), 0xFFF8000000000000ull);
  EXPECT_EQ(one_output({inf, 0, 0, 0}, {1, 0, 0, 0}, 1.0), bits(inf));
}

TEST(Fp64Mma, GemmPadsKAndTracesEveryStep) {
  // K = 5 over K = 4 steps: two steps, the second padded with three zero products.
  const InstructionModel& m = lookup(Arch::sm80, "mma.m8n8k4.f64.f64.f64.f64");
  const auto A = words({1, 2, 3, 4, 5}), B = words({1, 1, 1, 1, 0.5}), C = words({0.25});
  std::vector<uint32_t> D(2), trace(4);
  gemm(m, 1, 1, 5, A.data(), B.data(), C.data(), D.data(), trace.data());
  EXPECT_EQ(element(trace, 0), bits(10.25));
  EXPECT_EQ(element(trace, 1), bits(12.75));
  EXPECT_EQ(element(D, 0), bits(12.75));
  EXPECT_THROW(dot(m, A.data(), B.data(), C[0]), std::invalid_argument);
}

TEST(MixedCM8n8k4, ReadsCAsFp16FirstAndTheAccumulatorAsFp32After) {
  const InstructionModel& mixed = lookup(Arch::sm70, "mma.m8n8k4.f32.f16.f16.f16");
  const InstructionModel& f32 = lookup(Arch::sm70, "mma.m8n8k4.f32.f16.f16.f32");
  EXPECT_EQ(mixed.instr.c, FormatId::fp16);
  EXPECT_EQ(mixed.instr.d, FormatId::fp32);
  // fp16: 1.0 = 0x3C00, 0.5 = 0x3800, 2^-11 = 0x1000 (an fp16 accumulator would lose it; the second step
  // must read the fp32 accumulator as fp32: its low half read as fp16 would be a tiny number).
  const std::vector<uint32_t> a = {0x3C00, 0x3C00, 0x3800, 0x1000, 0x3C00, 0x1000, 0x3800, 0x3C00};
  const std::vector<uint32_t> b = {0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00};
  const uint32_t c = 0x3800;  // fp16 0.5
  const uint32_t step1 = dot(mixed, a.data(), b.data(), c);
  EXPECT_EQ(step1, 0x40400800u);  // 0.5 + 1 + 1 + 0.5 + 2^-11 = 3 + 2^-11 in fp32
  const uint32_t step2 = dot(f32, a.data() + 4, b.data() + 4, step1);
  std::vector<uint32_t> D(1), trace(2);
  gemm(mixed, 1, 1, 8, a.data(), b.data(), &c, D.data(), trace.data());
  EXPECT_EQ(trace[0], step1);
  EXPECT_EQ(D[0], step2);
  EXPECT_EQ(D[0], 0x40B00800u);  // 3 + 2^-11 + 1 + 2^-11 + 0.5 + 1 = 5.5 + 2^-10: the fp32 accumulator kept both
}
