// Replaying synthetic recordings: verdicts, mismatch records, and sets that cannot be replayed.
#include <gtest/gtest.h>

#include <set>

#include "harness/core/errors.hpp"
#include "harness/external/km_replay.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/external/tests/synthetic_archive.hpp"

namespace mmaemu::external {
namespace {

using testing::binary32;
using testing::Members;
using testing::TempDir;
using testing::v100_members;
using testing::with;
using testing::write_tar_xz;

SuiteResult replay(const Members& members) {
  TempDir dir;
  const auto path = dir.path() / "km.tar.xz";
  write_tar_xz(path, members);
  return replay_km_archive(path);
}

TEST(KmReplay, ExactDotProductsPass) {
  const SuiteResult r = replay(v100_members());
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  EXPECT_EQ(r.compared, 4u);
  EXPECT_EQ(r.mismatched, 0u);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups.at("V100/fp16/fp32-out").compared, 2u);
  EXPECT_EQ(r.groups.at("V100/fp16/fp16-out").compared, 2u);
}

TEST(KmReplay, AWrongResultIsAMismatchWithItsInputs) {
  const SuiteResult r = replay(with(v100_members(), "km/V100/fp16/d_V100_fp32.txt",
                                    binary32(0x40a00000) + "\n" + binary32(0x40800001) + "\n"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.mismatched, 1u);
  EXPECT_EQ(r.groups.at("V100/fp16/fp32-out").mismatched, 1u);
  EXPECT_NE(r.reason.find("V100/fp16/fp32-out 1/2"), std::string::npos) << r.reason;
  ASSERT_EQ(r.first_mismatches.size(), 1u);
  const Mismatch& m = r.first_mismatches[0];
  EXPECT_EQ(m.case_id, "line 2");
  EXPECT_EQ(m.expected, "40800001");
  EXPECT_EQ(m.got, "40800000");
  EXPECT_NE(m.inputs.find("a=[3800 3800 3800 3800] b=[4000 4000 4000 4000] c=00000000"), std::string::npos)
      << m.inputs;
}

TEST(KmReplay, AnInputTheFormatCannotHoldNamesFileAndLine) {
  const std::string a = "km/V100/fp16/a_V100_fp16.txt";
  try {
    replay(with(v100_members(), a, "3f800000 3f800000 3f800000 3f800000\n3f000001 3f000000 3f000000 3f000000\n"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.where().find("!" + a + ":2"), std::string::npos) << e.where();
  }
}

TEST(KmReplay, ASetWithoutRecipeIsAnErrorNotASkip) {
  Members m = v100_members();
  for (auto& [name, text] : m)
    if (name != "km/LICENCE") {
      name.replace(name.find("V100/"), 5, "X1/");
      name.replace(name.find("_V100_"), 6, "_X1_");
    }
  const SuiteResult r = replay(m);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_EQ(r.groups.count("X1/fp16/fp32-out"), 1u);
  EXPECT_NE(r.reason.find("X1/fp16/fp32-out"), std::string::npos) << r.reason;
}

// Every row names an architecture and an instruction in the reference's spelling, and no two rows
// describe the same set.
TEST(KmReplay, EveryRecipeIsWellFormedAndUnique) {
  std::set<std::string> seen;
  for (const KmRecipe& r : km_recipes()) {
    const std::string key = std::string(r.gpu) + "/" + std::string(r.format) + "/" + std::string(r.out);
    EXPECT_TRUE(seen.insert(key).second) << key;
    EXPECT_TRUE(ref::parse_arch(r.arch).has_value()) << key;
    std::string why;
    const auto in = ref::parse_instruction(r.instruction, &why);
    ASSERT_TRUE(in.has_value()) << key << ": " << why;
    EXPECT_EQ(in->k, r.k) << key;
    EXPECT_EQ(in->d == ref::FormatId::fp16, r.out == "fp16") << key;
  }
  EXPECT_EQ(seen.size(), 48u);
}

}  // namespace
}  // namespace mmaemu::external
