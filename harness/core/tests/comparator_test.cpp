#include <gtest/gtest.h>

#include <vector>

#include "harness/core/comparator.hpp"

namespace mmaemu {
namespace {

TEST(Hex, PadsToStorageWidth) {
  EXPECT_EQ(hex_bits(0x3c00, 2), "3c00");
  EXPECT_EQ(hex_bits(0x7, 1), "07");
  EXPECT_EQ(hex_bits(0x3f800000, 4), "3f800000");
  const uint32_t v[] = {1, 2, 3, 4};
  EXPECT_EQ(hex_list(v, 2, 1, 2), "[01 03]");
}

TEST(BitComparator, CountsPerGroupAndKeepsTheFirstMismatches) {
  SuiteResult r;
  BitComparator cmp(r);
  std::vector<uint32_t> expected(100, 0x3c00), got = expected;
  for (size_t i : {5u, 50u, 99u}) got[i] ^= 1;
  size_t described = 0;
  const size_t differ = cmp.compare("g1", expected, got, 2, [&](size_t i) {
    ++described;
    return CaseDescription{"case " + std::to_string(i), "a=[" + std::to_string(i) + "]"};
  });
  EXPECT_EQ(differ, 3u);
  cmp.compare("g2", expected, expected, 2, [](size_t) { return CaseDescription{}; });
  EXPECT_EQ(described, 3u);
  EXPECT_EQ(r.compared, 200u);
  EXPECT_EQ(r.mismatched, 3u);
  EXPECT_EQ(r.groups["g1"].compared, 100u);
  EXPECT_EQ(r.groups["g1"].mismatched, 3u);
  EXPECT_EQ(r.groups["g2"].mismatched, 0u);
  ASSERT_EQ(r.first_mismatches.size(), 3u);
  EXPECT_EQ(r.first_mismatches[1].case_id, "case 50");
  EXPECT_EQ(r.first_mismatches[1].inputs, "a=[50]");
  EXPECT_EQ(r.first_mismatches[1].expected, "3c00");
  EXPECT_EQ(r.first_mismatches[1].got, "3c01");
  EXPECT_EQ(r.first_mismatches[1].group, "g1");

  set_verdict_from_counts(r);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.reason.find("g1 (3/100)"), std::string::npos) << r.reason;
  EXPECT_EQ(r.reason.find("g2"), std::string::npos) << r.reason;
}

TEST(BitComparator, KeepsAtMostKKeepAndDescribesOnlyThose) {
  SuiteResult r;
  BitComparator cmp(r);
  std::vector<uint32_t> expected(1000, 0), got(1000, 1);
  size_t described = 0;
  cmp.compare("g", expected, got, 4, [&](size_t) {
    ++described;
    return CaseDescription{};
  });
  GroupCount& g = cmp.group("one");
  for (int i = 0; i < 10; ++i) cmp.compare_one(g, "one", 1, 2, 4, [&](size_t) { ++described; return CaseDescription{}; });
  EXPECT_EQ(r.first_mismatches.size(), BitComparator::kKeep);
  EXPECT_EQ(described, BitComparator::kKeep);
  EXPECT_EQ(r.mismatched, 1010u);
  EXPECT_EQ(r.groups["one"].compared, 10u);
}

TEST(BitComparator, AllEqualPassesAndNothingComparedIsAnError) {
  SuiteResult r;
  BitComparator cmp(r);
  set_verdict_from_counts(r);
  EXPECT_EQ(r.verdict, Verdict::error);
  std::vector<uint32_t> v(10, 7);
  cmp.compare("g", v, v, 4, [](size_t) { return CaseDescription{}; });
  set_verdict_from_counts(r);
  EXPECT_EQ(r.verdict, Verdict::pass);
}

// Four million outputs in 1024-output slices: the one flipped sign bit is found, and counted once.
// No wall-clock bound: this binary runs once per mutant in T4 on busy cores, where a time limit would
// fail or "kill" by load. The comparator's speed is measured in T6 (tiers/T6.yaml, harness: cases per
// second of whole suites, the comparator included).
TEST(BitComparator, MillionsOfOutputsFindTheOneThatDiffers) {
  SuiteResult r;
  BitComparator cmp(r);
  std::vector<uint32_t> expected(4 << 20), got;
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<uint32_t>(i * 2654435761u);
  got = expected;
  got[123456] ^= 0x80000000u;
  for (size_t off = 0; off < expected.size(); off += 1024)
    cmp.compare("g", std::span(expected).subspan(off, 1024), std::span(got).subspan(off, 1024), 4,
                [](size_t) { return CaseDescription{}; });
  EXPECT_EQ(r.mismatched, 1u);
  EXPECT_EQ(r.compared, expected.size());
  ASSERT_EQ(r.first_mismatches.size(), 1u);
  EXPECT_EQ(r.groups.at("g").mismatched, 1u);
}

}  // namespace
}  // namespace mmaemu
