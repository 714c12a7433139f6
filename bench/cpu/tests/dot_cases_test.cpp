// The CPU benchmark's cases: which block each profile and format times, its operands, and that the
// loops it times compute what they claim (the oracle and the kernels' arithmetic give the same bits;
// the float loop is c + sum a*b).
#include <gtest/gtest.h>

#include <set>

#include "bench/cpu/dot_cases.hpp"

namespace mmaemu::bench {
namespace {

using ref::Arch;
using ref::FormatId;

TEST(DotCases, BlockPerProfileAndFormat) {
  const auto hopper = dot_case(Arch::sm90, FormatId::fp16);
  ASSERT_TRUE(hopper);
  EXPECT_EQ(hopper->L, 16);
  EXPECT_EQ(hopper->model->instr.family, ref::InstrFamily::mma_sync);
  // Hopper's mma.sync FP8 is lowered to fp16: the FP8 block is wgmma's, 32 wide.
  const auto fp8 = dot_case(Arch::sm90, FormatId::e4m3);
  ASSERT_TRUE(fp8);
  EXPECT_EQ(fp8->L, 32);
  EXPECT_EQ(fp8->model->instr.family, ref::InstrFamily::wgmma);
  EXPECT_FALSE(fp8->model->lowering);
  EXPECT_EQ(dot_case(Arch::sm70, FormatId::fp16)->L, 4);
  EXPECT_EQ(dot_case(Arch::sm80, FormatId::tf32)->L, 4);
  EXPECT_FALSE(dot_case(Arch::sm70, FormatId::bf16));   // Volta has no bf16
  // sm100's mma.sync FP8 is lowered; its FP8 unit is tcgen05.mma's, 32 wide.
  const auto sm100_fp8 = dot_case(Arch::sm100, FormatId::e5m2);
  ASSERT_TRUE(sm100_fp8);
  EXPECT_EQ(sm100_fp8->L, 32);
  EXPECT_EQ(sm100_fp8->model->instr.family, ref::InstrFamily::tcgen05);
}

TEST(DotCases, BatchIsDeterministicRealisticAndNeverAllZero) {
  const DotCase dc = *dot_case(Arch::sm90, FormatId::bf16);
  const DotBatch x = make_batch(dc, 256, 7), y = make_batch(dc, 256, 7), z = make_batch(dc, 256, 8);
  ASSERT_EQ(x.a.size(), 256u * 16);
  ASSERT_EQ(x.c.size(), 256u);
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b, y.b);
  EXPECT_NE(x.a, z.a);
  EXPECT_NE(x.a, x.b);  // b is not a copy of a
  std::set<uint32_t> distinct(x.a.begin(), x.a.end());
  EXPECT_GT(distinct.size(), 100u);
  size_t zeros = 0;
  for (float v : x.af) zeros += v == 0.0f;
  EXPECT_LT(zeros, x.af.size() / 10);
}

TEST(DotCases, ReferenceAndHostGiveTheSameBits) {
  for (Arch arch : ref::all_archs())
    for (FormatId f : {FormatId::fp16, FormatId::bf16, FormatId::tf32, FormatId::e4m3, FormatId::e5m2}) {
      const auto dc = dot_case(arch, f);
      if (!dc) continue;
      const DotBatch batch = make_batch(*dc, 512, 3);
      std::vector<uint32_t> r(batch.count), h(batch.count);
      reference_blocks(*dc, batch, r.data());
      host_blocks(*dc, batch, h.data());
      EXPECT_EQ(r, h) << ref::arch_name(arch) << " " << ref::format_name(f);
      std::set<uint32_t> distinct(r.begin(), r.end());
      EXPECT_GT(distinct.size(), 400u) << "results vary with the inputs";
    }
}

TEST(DotCases, FloatLoopIsCPlusTheProducts) {
  DotBatch b;
  b.L = 2;
  b.count = 2;
  b.af = {1, 2, -0.5f, 8};
  b.bf = {3, 4, 2, 0.25f};
  b.cf = {0.5f, -1};
  float d[2];
  float_blocks(b, d);
  EXPECT_EQ(d[0], 11.5f);
  EXPECT_EQ(d[1], 0.0f);
}

}  // namespace
}  // namespace mmaemu::bench
