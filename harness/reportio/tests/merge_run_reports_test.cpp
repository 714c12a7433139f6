#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/report_json.hpp"
#include "harness/reportio/compare.hpp"
#include "harness/reportio/merge.hpp"
#include "harness/reportio/tests/real_reports.hpp"
#include "harness/reportio/run_report_reader.hpp"

namespace mmaemu::reportio {
namespace {

using testing::shard_sources;
using testing::split_run;

RunReport untimed(RunReport run) {
  for (SuiteResult& s : run.suites) s.seconds = 0;
  return run;
}

class MergeRunReports : public ::testing::Test {
 protected:
  void SetUp() override {
    original = run_report_from_json(testing::real_run_json(), "real.json");
    // The split deals suites out by position: the run must number them 0, 1, 2, ... in its order.
    for (size_t i = 0; i < original.suites.size(); ++i) ASSERT_EQ(original.suites[i].position, i);
    shards = split_run(original, 3);
  }
  // InputError's message, or "" when the merge succeeds.
  std::string error_of(const std::vector<RunReport>& s, const std::vector<std::string>& sources) {
    try {
      merge_run_reports(s, sources);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  RunReport original;
  std::vector<RunReport> shards;
};

TEST_F(MergeRunReports, ThreeShardsGiveBackTheUnshardedRun) {
  // What differs between machines: the start times (shard 2 started first) and the hosts.
  shards[0].started_utc = "2099-01-01T00:00:02Z";
  shards[1].started_utc = original.started_utc;
  shards[2].started_utc = "2099-01-01T00:00:01Z";
  shards[1].host = "other-machine";
  shards[2].suites[0].seconds += 7;  // a timing
  ASSERT_EQ(shards[0].suites.size(), 2u);  // positions 0 and 3
  // Given in any order.
  const RunReport merged = merge_run_reports({shards[2], shards[0], shards[1]}, {"c.json", "a.json", "b.json"});
  EXPECT_FALSE(merged.shard.sharded());
  EXPECT_EQ(merged.host, original.host);
  EXPECT_EQ(merged.started_utc, original.started_utc);
  EXPECT_TRUE(compare_json(nlohmann::json::parse(report_json::render(original)),
                           nlohmann::json::parse(report_json::render(merged)))
                  .empty());
  // The renderings are equal but for the timing changed above.
  EXPECT_NE(report_json::render(merged), report_json::render(original));
  EXPECT_EQ(report_json::render(untimed(merged)), report_json::render(untimed(original)));
}

TEST_F(MergeRunReports, OneShardIsItself) {
  RunReport alone = original;
  EXPECT_EQ(report_json::render(merge_run_reports({alone}, {"alone.json"})), report_json::render(original));
}

TEST_F(MergeRunReports, AMissingIndexIsAnError) {
  const std::string e = error_of({shards[0], shards[2]}, {"a.json", "c.json"});
  EXPECT_NE(e.find("shard 2/3 is missing"), std::string::npos) << e;
  EXPECT_NE(e.find("a.json (1/3)"), std::string::npos) << e;
  EXPECT_NE(e.find("c.json (3/3)"), std::string::npos) << e;
}

TEST_F(MergeRunReports, ADuplicateIndexIsAnErrorNamingTheFile) {
  const std::string e = error_of({shards[0], shards[1], shards[1], shards[2]}, shard_sources(4));
  EXPECT_EQ(e.rfind("shard-3.json: shard 2/3 given twice: shard-2.json", 0), 0u) << e;
}

TEST_F(MergeRunReports, CountsThatDifferAreAnErrorNamingTheFile) {
  shards[2].shard = {3, 4};
  const std::string e = error_of(shards, shard_sources(3));
  EXPECT_EQ(e.rfind("shard-3.json: shard 3/4 is one of 4 shards, but shard-1.json is shard 1/3", 0), 0u) << e;
}

TEST_F(MergeRunReports, ACommitThatDiffersIsAnErrorNamingTheFile) {
  shards[1].commit = "feedface";
  const std::string e = error_of(shards, shard_sources(3));
  EXPECT_EQ(e.rfind("shard-2.json: commit \"feedface\" differs from", 0), 0u) << e;
  EXPECT_NE(e.find("in shard-1.json"), std::string::npos) << e;
}

TEST_F(MergeRunReports, TierFilesOrToolVersionsThatDifferAreErrors) {
  std::vector<RunReport> s = shards;
  s[2].tier_files.pop_back();
  EXPECT_EQ(error_of(s, shard_sources(3)).rfind("shard-3.json: tier files", 0), 0u);
  s = shards;
  s[1].tool_version = "9.9.9";
  EXPECT_EQ(error_of(s, shard_sources(3)).rfind("shard-2.json: tool version", 0), 0u);
}

TEST_F(MergeRunReports, APositionHeldTwiceIsAnErrorNamingTheFile) {
  shards[2].suites[0].position = 0;  // shard 1 holds position 0
  const std::string e = error_of(shards, shard_sources(3));
  EXPECT_EQ(e.rfind("shard-3.json: suite", 0), 0u) << e;
  EXPECT_NE(e.find("at position 0: shard-1.json has a suite at that position too"), std::string::npos) << e;
}

}  // namespace
}  // namespace mmaemu::reportio
