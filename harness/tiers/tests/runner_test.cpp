#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/tiers/runner.hpp"
#include "harness/tiers/tests/test_files.hpp"

namespace mmaemu {
namespace {

using testing::TempDir;
using testing::write_fixture_set;
using testing::write_text;

nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

class Runner : public ::testing::Test {
 protected:
  // A tier with a fixture suite (set "good" or "bad") and an optional external suite whose archive
  // does not exist.
  std::filesystem::path tier(const std::string& set) {
    const auto p = dir / "T2.yaml";
    write_text(p,
               "tier: T2\n"
               "suites:\n"
               "  - name: fixtures\n"
               "    kind: fixture-replay\n"
               "    labels: [T2, cpu]\n"
               "    fixtures: " + set + "\n"
               "  - name: external\n"
               "    kind: external-replay\n"
               "    archive: absent.tar.xz\n"
               "    optional: true\n");
    return p;
  }
  RunOptions options(const std::filesystem::path& tier_file) {
    RunOptions o;
    o.tier_files = {tier_file};
    o.report_dir = dir / "reports";
    o.quiet = true;
    return o;
  }
  void SetUp() override {
    write_fixture_set(dir / "good", {"mma.m16n8k16.f32.bf16.bf16.f32"}, {{"realistic", 2}});
    testing::Spoilers spoil;
    spoil.arrays = [](NpyArray&, NpyArray&, NpyArray&, NpyArray& d) { d.values[7] ^= 0x80000000u; };
    write_fixture_set(dir / "bad", {"mma.m16n8k16.f32.bf16.bf16.f32"}, {{"realistic", 2}}, spoil);
  }
  TempDir dir;
};

TEST_F(Runner, PassAndSkipGiveZeroAndWriteReports) {
  EXPECT_EQ(run_tiers(options(tier("good"))), 0);
  const auto j = read_json(dir / "reports" / "T2.json");
  ASSERT_EQ(j["suites"].size(), 2u);
  EXPECT_EQ(j["suites"][0]["verdict"], "pass");
  EXPECT_EQ(j["suites"][1]["verdict"], "skip");
  EXPECT_EQ(j["suites"][1]["reason"], "third-party recordings not found at " + (dir.path() / "absent.tar.xz").string());
  EXPECT_FALSE(j["commit"].get<std::string>().empty());
  EXPECT_FALSE(j["started_utc"].get<std::string>().empty());
  EXPECT_TRUE(std::filesystem::exists(dir / "reports" / "T2.xml"));
  EXPECT_TRUE(std::filesystem::exists(dir / "reports" / "T2.md"));
}

TEST_F(Runner, AMismatchGivesOne) {
  EXPECT_EQ(run_tiers(options(tier("bad"))), 1);
  const auto j = read_json(dir / "reports" / "T2.json");
  EXPECT_EQ(j["suites"][0]["verdict"], "fail");
  EXPECT_EQ(j["suites"][0]["first_mismatches"].size(), 1u);
}

TEST_F(Runner, OnlySelectedSuitesRunAndNameTheReports) {
  RunOptions o = options(tier("good"));
  o.only_suites = {"fixtures"};
  EXPECT_EQ(run_tiers(o), 0);
  const auto j = read_json(dir / "reports" / "T2.fixtures.json");
  EXPECT_EQ(j["suites"].size(), 1u);
}

TEST_F(Runner, EverySuiteSkippedGives77UnderCtest) {
  RunOptions o = options(tier("good"));
  o.only_suites = {"T2.external"};
  EXPECT_EQ(run_tiers(o), 0);
  o.ctest = true;
  EXPECT_EQ(run_tiers(o), kExitAllSkipped);
}

TEST_F(Runner, SchemaErrorGivesTwoBeforeAnythingRuns) {
  const auto bad = dir / "T9.yaml";
  write_text(bad, "tier: T9\nsuites:\n  - name: x\n    kind: fixture-replay\n    fixture: good\n");
  RunOptions o = options(tier("good"));
  o.tier_files.push_back(bad);
  EXPECT_EQ(run_tiers(o), 2);
  EXPECT_FALSE(std::filesystem::exists(dir / "reports"));
}

TEST_F(Runner, MissingRequiredInputGivesTwo) {
  EXPECT_EQ(run_tiers(options(tier("nowhere"))), 2);
  EXPECT_FALSE(std::filesystem::exists(dir / "reports"));
}

TEST_F(Runner, UnselectedSuiteMayLackItsInput) {
  RunOptions o = options(tier("nowhere"));
  o.only_suites = {"external"};
  o.ctest = true;
  EXPECT_EQ(run_tiers(o), kExitAllSkipped);
}

TEST_F(Runner, UnknownSuiteGivesTwo) {
  RunOptions o = options(tier("good"));
  o.only_suites = {"fixturs"};
  EXPECT_EQ(run_tiers(o), 2);
}

TEST_F(Runner, CorruptSetEndsInErrorAndGivesTwo) {
  write_text(dir / "good" / "manifest.yaml", "schema: mmaemu-fixtures/1\nset: x\n");
  EXPECT_EQ(run_tiers(options(tier("good"))), 2);
  const auto j = read_json(dir / "reports" / "T2.json");
  EXPECT_EQ(j["suites"][0]["verdict"], "error");
  EXPECT_NE(j["suites"][0]["reason"].get<std::string>().find("manifest.yaml:1:1"), std::string::npos);
  EXPECT_EQ(j["suites"][1]["verdict"], "skip") << "the other suites still run";
}

}  // namespace
}  // namespace mmaemu
