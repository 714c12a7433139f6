#include "harness/record/recording.hpp"

#include <gtest/gtest.h>

namespace mmaemu::record {
namespace {

TEST(Recording, EveryRecordableInstructionParses) {
  for (const auto& name : recordable_instructions()) {
    std::string why;
    EXPECT_TRUE(ref::parse_instruction(name, &why).has_value()) << name << ": " << why;
  }
}

TEST(Recording, DefaultGivesAtLeastFiftyThousandOutputs) {
  for (const auto& name : recordable_instructions()) {
    const auto in = *ref::parse_instruction(name);
    const int tiles = default_tiles_per_family(in) * static_cast<int>(gen::all_families().size());
    EXPECT_GE(static_cast<size_t>(tiles) * in.m * in.n, 50000u) << name;
    EXPECT_LT(static_cast<size_t>(tiles) * in.m * in.n, 60000u) << name;
  }
}

TEST(Recording, PlanCoversAllTilesFamilyByFamilyAndIsDeterministic) {
  const auto in = *ref::parse_instruction("wgmma.m64n8k32.f32.e4m3.e4m3");
  const InstructionRecording r = plan_recording(in, 7, 3);
  ASSERT_EQ(r.tiles, 27);
  ASSERT_EQ(r.families.size(), gen::all_families().size());
  int next = 0;
  for (const auto& f : r.families) {
    EXPECT_EQ(f.first, next);
    EXPECT_EQ(f.last, next + 3);
    next = f.last;
  }
  EXPECT_EQ(r.a.size(), size_t(27 * 64 * 32));
  EXPECT_EQ(r.b.size(), size_t(27 * 32 * 8));
  EXPECT_EQ(r.c.size(), size_t(27 * 64 * 8));
  const InstructionRecording again = plan_recording(in, 7, 3);
  EXPECT_EQ(r.a, again.a);
  EXPECT_EQ(r.c, again.c);
  EXPECT_NE(r.a, plan_recording(in, 8, 3).a);
  // Tiles within one family differ from each other.
  EXPECT_FALSE(std::equal(r.a.begin(), r.a.begin() + 64 * 32, r.a.begin() + 64 * 32));
}

}  // namespace
}  // namespace mmaemu::record
