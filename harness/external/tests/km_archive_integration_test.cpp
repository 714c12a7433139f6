// The real archive, when it is present beside the repository: every set parses with the shape its
// recipe expects, and every set can be replayed (whether the reference matches is tier T2's verdict).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "harness/external/km_replay.hpp"

namespace mmaemu::external {
namespace {

const std::filesystem::path kArchive = MMAEMU_KM_ARCHIVE;

TEST(KmArchiveIntegration, EverySetHas5000CasesOfItsK) {
  if (!std::filesystem::exists(kArchive)) GTEST_SKIP() << kArchive << " is absent";
  const auto sets = read_km_archive(kArchive);
  EXPECT_EQ(sets.size(), 48u);
  for (const KmSet& s : sets) {
    const std::string group = s.gpu + "/" + s.format + "/" + s.out;
    const auto recipe = km_recipe(s.gpu, s.format, s.out);
    ASSERT_TRUE(recipe.has_value()) << group;
    EXPECT_EQ(s.k, recipe->k) << group;
    EXPECT_EQ(s.cases(), 5000u) << group;
    EXPECT_EQ(s.a.size(), 5000u * s.k) << group;
    EXPECT_EQ(s.b.size(), 5000u * s.k) << group;
    EXPECT_EQ(s.d.size(), 5000u) << group;
  }
}

TEST(KmArchiveIntegration, EverySetReplays) {
  if (!std::filesystem::exists(kArchive)) GTEST_SKIP() << kArchive << " is absent";
  const SuiteResult r = replay_km_archive(kArchive);
  for (const auto& [group, g] : r.groups)
    std::cout << group << ": " << g.mismatched << " of " << g.compared << " differ\n";
  EXPECT_EQ(r.groups.size(), 48u);
  EXPECT_NE(r.verdict, Verdict::error) << r.reason;
  EXPECT_EQ(r.compared, 48u * 5000u);
}

}  // namespace
}  // namespace mmaemu::external
