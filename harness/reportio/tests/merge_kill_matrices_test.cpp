#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/reportio/compare.hpp"
#include "harness/reportio/merge.hpp"
#include "harness/reportio/tests/real_reports.hpp"

namespace mmaemu::reportio {
namespace {

using mutate::KillMatrix;
using testing::shard_sources;

class MergeKillMatrices : public ::testing::Test {
 protected:
  void SetUp() override {
    original = mutate::kill_matrix_from_json(testing::real_kill_matrix_json(), "baseline-cpu.json");
    ASSERT_GT(original.mutants.size(), 10u);
    shards = testing::split_matrix(original, 3);
  }
  std::string error_of(const std::vector<KillMatrix>& s) {
    try {
      merge_kill_matrices(s, shard_sources(s.size()));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  KillMatrix original;
  std::vector<KillMatrix> shards;
};

TEST_F(MergeKillMatrices, ThreeShardsGiveBackTheCommittedMatrix) {
  shards[1].started = "2099-01-01T00:00:00Z";
  shards[2].tests[0].baseline_seconds += 3;  // measured on another machine
  shards[2].tests[0].timeout_seconds += 9;
  const KillMatrix merged = merge_kill_matrices({shards[1], shards[2], shards[0]}, {"b.json", "c.json", "a.json"});
  EXPECT_EQ(merged.planned, original.planned);
  EXPECT_FALSE(merged.shard.sharded());
  EXPECT_EQ(mutate::to_json(merged), mutate::to_json(original));  // shard 1's test timings, the earliest start
  EXPECT_TRUE(compare_json(nlohmann::json::parse(mutate::to_json(original)), nlohmann::json::parse(mutate::to_json(merged)))
                  .empty());
}

TEST_F(MergeKillMatrices, BaselineChangesComeInTheOrderOneCampaignWritesThem) {
  for (KillMatrix* m : {&original, &shards[0], &shards[1], &shards[2]}) m->baseline_file = "mutants/old.json";
  // Shard 2 ran M2, shard 1 M1 and M4; M70000 left the catalogue, and both shards saw that.
  shards[1].baseline_changes = {"M2: survived before, killed by [T2] now", "M70000 (gone): killed by [T2] before, no longer in the catalogue"};
  shards[0].baseline_changes = {"M1: survived before, killed by [T2] now", "M4: survived before, killed by [T2] now",
                                "M70000 (gone): killed by [T2] before, no longer in the catalogue"};
  const KillMatrix merged = merge_kill_matrices(shards, shard_sources(3));
  EXPECT_EQ(merged.baseline_changes,
            (std::vector<std::string>{"M1: survived before, killed by [T2] now", "M2: survived before, killed by [T2] now",
                                      "M4: survived before, killed by [T2] now",
                                      "M70000 (gone): killed by [T2] before, no longer in the catalogue"}));
}

TEST_F(MergeKillMatrices, AMissingIndexIsAnError) {
  EXPECT_NE(error_of({shards[0], shards[1]}).find("shard 3/3 is missing"), std::string::npos);
}

TEST_F(MergeKillMatrices, ADuplicateIndexIsAnErrorNamingTheFile) {
  EXPECT_EQ(error_of({shards[0], shards[1], shards[0]}).rfind("shard-3.json: shard 1/3 given twice", 0), 0u);
}

TEST_F(MergeKillMatrices, CountsThatDifferAreAnErrorNamingTheFile) {
  shards[1].shard = {2, 2};
  EXPECT_EQ(error_of(shards).rfind("shard-2.json: shard 2/2 is one of 2 shards", 0), 0u);
}

TEST_F(MergeKillMatrices, ACommitThatDiffersIsAnErrorNamingTheFile) {
  shards[2].commit = "feedface";
  EXPECT_EQ(error_of(shards).rfind("shard-3.json: commit \"feedface\" differs", 0), 0u);
}

TEST_F(MergeKillMatrices, AMutantInTwoShardsIsAnErrorNamingTheFile) {
  shards[2].mutants.push_back(shards[0].mutants[0]);
  const std::string e = error_of(shards);
  EXPECT_EQ(e.rfind("shard-3.json: mutant M" + std::to_string(shards[0].mutants[0].mutant.id), 0), 0u) << e;
  EXPECT_NE(e.find("is in shard-1.json too"), std::string::npos) << e;
}

TEST_F(MergeKillMatrices, TestsTierOrCatalogueThatDifferAreErrors) {
  std::vector<KillMatrix> s = shards;
  s[1].tests[0].command.push_back("--fast");
  EXPECT_EQ(error_of(s).rfind("shard-2.json: tests", 0), 0u);
  s = shards;
  s[2].tests.pop_back();
  EXPECT_EQ(error_of(s).rfind("shard-3.json: tests", 0), 0u);
  s = shards;
  s[1].tier = "T4-gpu";
  EXPECT_EQ(error_of(s).rfind("shard-2.json: tier", 0), 0u);
  s = shards;
  s[1].catalogue = "other.yaml";
  EXPECT_EQ(error_of(s).rfind("shard-2.json: catalogue", 0), 0u);
}

}  // namespace
}  // namespace mmaemu::reportio
