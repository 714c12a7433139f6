#include <gtest/gtest.h>

#include "harness/core/comparator.hpp"
#include "harness/tiers/fixture_replay.hpp"
#include "harness/tiers/tests/test_files.hpp"

namespace mmaemu {
namespace {

using testing::TempDir;
using testing::write_fixture_set;

TEST(FixtureReplay, ASetMadeByTheReferencePasses) {
  TempDir dir;
  const auto manifest = write_fixture_set(
      dir.path(), {"mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k16.f16.f16.f16.f16", "wgmma.m64n8k32.f32.e4m3.e5m2"},
      {{"realistic", 3}, {"random_bits", 2}});
  const SuiteResult r = replay_fixture_set(manifest);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  EXPECT_EQ(r.compared, 5u * 16 * 8 * 2 + 5u * 64 * 8);
  EXPECT_EQ(r.mismatched, 0u);
  EXPECT_EQ(r.groups.at("mma.m16n8k16.f32.f16.f16.f32/realistic").compared, 3u * 16 * 8);
  EXPECT_EQ(r.groups.at("wgmma.m64n8k32.f32.e4m3.e5m2/random_bits").compared, 2u * 64 * 8);
}

TEST(FixtureReplay, AFlippedBitFailsWithInputsExpectedAndGot) {
  TempDir dir;
  // Tile 3 (second family), m 2, n 5 of an fp16-out instruction: D index (3*16 + 2)*8 + 5.
  const size_t t = 3, m = 2, n = 5, M = 16, N = 8, K = 16;
  uint32_t recorded = 0, computed = 0;
  testing::Spoilers spoil;
  spoil.arrays = [&](NpyArray&, NpyArray&, NpyArray&, NpyArray& d) {
    uint32_t& v = d.values[(t * M + m) * N + n];
    computed = v;
    v ^= 0x0001;
    recorded = v;
  };
  const auto manifest =
      write_fixture_set(dir.path(), {"mma.m16n8k16.f16.f16.f16.f16"}, {{"realistic", 3}, {"specials", 2}}, spoil);
  const SuiteResult r = replay_fixture_set(manifest);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.mismatched, 1u);
  EXPECT_EQ(r.groups.at("mma.m16n8k16.f16.f16.f16.f16/specials").mismatched, 1u);
  EXPECT_EQ(r.groups.at("mma.m16n8k16.f16.f16.f16.f16/realistic").mismatched, 0u);
  ASSERT_EQ(r.first_mismatches.size(), 1u);
  const Mismatch& mm = r.first_mismatches[0];
  EXPECT_EQ(mm.case_id, "tile 3 m 2 n 5");
  EXPECT_EQ(mm.expected, hex_bits(recorded, 2));
  EXPECT_EQ(mm.got, hex_bits(computed, 2));
  const NpyArray A = read_npy(dir.path() / "mma.m16n8k16.f16.f16.f16.f16" / "a.npy");
  const NpyArray B = read_npy(dir.path() / "mma.m16n8k16.f16.f16.f16.f16" / "b.npy");
  const NpyArray C = read_npy(dir.path() / "mma.m16n8k16.f16.f16.f16.f16" / "c.npy");
  EXPECT_EQ(mm.inputs, "a=" + hex_list(&A.values[(t * M + m) * K], K, 2) + " b=" + hex_list(&B.values[t * K * N + n], K, 2, N) +
                           " c=" + hex_bits(C.values[(t * M + m) * N + n], 2));
  EXPECT_NE(r.reason.find("specials (1/256)"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace mmaemu
