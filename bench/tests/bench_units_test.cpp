// The benchmark's host-side pieces: statistics, shape parsing, the emulated instruction per format,
// narrowing to storage width and the floors. No GPU needed.
#include <gtest/gtest.h>

#include "harness/core/errors.hpp"
#include "bench/floors.hpp"
#include "bench/gemm_inputs.hpp"
#include "bench/sample_stats.hpp"

namespace mmaemu::bench {
namespace {

TEST(SampleStats, MedianPercentilesAndExtremes) {
  const SampleStats s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.p10, 1.4);
  EXPECT_DOUBLE_EQ(s.p90, 4.6);
  EXPECT_DOUBLE_EQ(summarize({1, 2, 3, 4}).median, 2.5);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(SampleStats, RateSwapsTheExtremes) {
  const SampleStats r = rate_of(summarize({1, 2, 4}), 8);
  EXPECT_DOUBLE_EQ(r.median, 4);
  EXPECT_DOUBLE_EQ(r.min, 2);
  EXPECT_DOUBLE_EQ(r.max, 8);
}

TEST(GemmInputs, ParsesShapes) {
  const auto s = parse_shape("16x4096x2048");
  EXPECT_EQ(s.batch, 1u);
  EXPECT_EQ(s.M, 16u);
  EXPECT_EQ(s.N, 4096u);
  EXPECT_EQ(s.K, 2048u);
  EXPECT_EQ(shape_name(s), "16x4096x2048");
  for (const char* bad : {"", "4096", "4x4", "4x4x", "4x0x4", "4x4x4x4", "ax4x4", "4x-4x4"})
    EXPECT_THROW(parse_shape(bad), InputError) << bad;
}

TEST(GemmInputs, PicksTheEmulatedInstruction) {
  using ref::FormatId;
  EXPECT_EQ(bench_model(ref::Arch::sm90, ref::InstrFamily::mma_sync, FormatId::bf16).instr.name,
            "mma.m16n8k16.f32.bf16.bf16.f32");
  EXPECT_EQ(bench_model(ref::Arch::sm90, ref::InstrFamily::mma_sync, FormatId::e4m3).instr.name,
            "mma.m16n8k32.f32.e4m3.e4m3.f32");
  EXPECT_EQ(bench_model(ref::Arch::sm90, ref::InstrFamily::wgmma, FormatId::fp16).instr.n, 8);
  EXPECT_THROW(bench_model(ref::Arch::sm80, ref::InstrFamily::mma_sync, FormatId::e5m2), InputError);
  // A wide wgmma on request (tc's pipelined GEMM): the same types and K, N as asked.
  EXPECT_EQ(bench_model(ref::Arch::sm90, ref::InstrFamily::wgmma, FormatId::fp16, 256).instr.name,
            "wgmma.m64n256k16.f32.f16.f16");
  EXPECT_EQ(bench_model(ref::Arch::sm90, ref::InstrFamily::wgmma, FormatId::e4m3, 128).instr.name,
            "wgmma.m64n128k32.f32.e4m3.e4m3");
  EXPECT_THROW(bench_model(ref::Arch::sm90, ref::InstrFamily::wgmma, FormatId::fp16, 260), InputError);
  EXPECT_THROW(bench_model(ref::Arch::sm90, ref::InstrFamily::mma_sync, FormatId::fp16, 256), InputError);
}

TEST(GemmInputs, RealisticOperandsAreNotZeros) {
  const kernels::GemmShape s{1, 32, 16, 64};
  const HostOperands ops = realistic_operands(ref::FormatId::fp16, ref::FormatId::fp16, ref::FormatId::fp32, s, 7);
  ASSERT_EQ(ops.a.size(), 32u * 64);
  size_t nonzero = 0;
  for (uint32_t v : ops.a) nonzero += (v & 0x7FFF) != 0;
  EXPECT_GT(nonzero, ops.a.size() * 9 / 10);
}

TEST(GemmInputs, OperandCacheGeneratesEachSetOnceAndKeepsTwo) {
  using ref::FormatId;
  const kernels::GemmShape s{1, 16, 8, 32};
  OperandCache cache;
  const HostOperands& fp16 = cache.get(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3);
  // The same set again is the same object (not regenerated), with the values a fresh generation gives.
  EXPECT_EQ(&cache.get(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3), &fp16);
  EXPECT_EQ(fp16.a, realistic_operands(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3).a);
  // Another seed, shape or format is another set; the first stays valid beside a second one.
  const HostOperands& seed4 = cache.get(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 4);
  EXPECT_NE(&seed4, &fp16);
  EXPECT_NE(seed4.a, fp16.a);
  EXPECT_EQ(&cache.get(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3), &fp16);
  EXPECT_EQ(fp16.b, realistic_operands(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3).b);
  // A third set evicts the oldest (seed 3): asked again, it is generated anew, equal in value.
  const HostOperands& e5m2 = cache.get(FormatId::e5m2, FormatId::e4m3, FormatId::fp32, s, 3);
  EXPECT_EQ(e5m2.a.size(), 16u * 32);
  EXPECT_EQ(cache.get(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3).c,
            realistic_operands(FormatId::fp16, FormatId::fp16, FormatId::fp32, s, 3).c);
}

TEST(GemmInputs, NarrowsToStorageWidth) {
  const std::vector<uint32_t> bits{0x3C00, 0xBC01};
  EXPECT_EQ(pack_storage(bits, ref::FormatId::fp16), (std::vector<uint8_t>{0x00, 0x3C, 0x01, 0xBC}));
  EXPECT_EQ(pack_storage({0x38, 0xB8}, ref::FormatId::e4m3), (std::vector<uint8_t>{0x38, 0xB8}));
  EXPECT_EQ(pack_storage({0x3F800000}, ref::FormatId::tf32).size(), 4u);
}

TEST(Floors, EmulationIsComputeBoundAtLargeShapes) {
  DeviceFacts h200;
  h200.cc_major = 9;
  h200.sm_count = 132;
  h200.sm_clock_ghz = 1.98;
  const Ceilings c = ceilings_of(h200, 4.8);
  const kernels::GemmShape s{1, 4096, 4096, 4096};
  // 2 TMAC/s: 34.4 ms.
  const double ms = 4096.0 * 4096 * 4096 / 2e12 * 1e3;
  const FloorNote n = floor_note(s, ref::FormatId::bf16, ref::FormatId::bf16, ref::FormatId::fp32,
                                 Engine::cuda_cores, ms, c);
  EXPECT_DOUBLE_EQ(n.min_bytes, 4096.0 * 4096 * (2 + 2 + 4 + 4));
  EXPECT_NEAR(n.memory_floor_ms, n.min_bytes / 4.8e12 * 1e3, 1e-12);
  EXPECT_EQ(n.bound, "compute");
  EXPECT_FALSE(n.compute_floor_ms);
  EXPECT_NEAR(n.lane_ops_per_mac, 16.7, 0.1);

  const FloorNote t = floor_note(s, ref::FormatId::bf16, ref::FormatId::bf16, ref::FormatId::fp32,
                                 Engine::tensor_cores, 0.2, c);
  ASSERT_TRUE(t.compute_floor_ms);
  EXPECT_NEAR(*t.compute_floor_ms, 4096.0 * 4096 * 4096 / (132 * 2048 * 1.98e9) * 1e3, 1e-9);
  EXPECT_EQ(t.bound, "compute");
}

}  // namespace
}  // namespace mmaemu::bench
