#include "harness/reportio/merge_directories.hpp"

#include <gtest/gtest.h>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/reports.hpp"
#include "harness/mutate/campaign_output.hpp"
#include "harness/reportio/compare.hpp"
#include "harness/reportio/json_file.hpp"
#include "harness/reportio/tests/real_reports.hpp"
#include "harness/reportio/run_report_reader.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::reportio {
namespace {

namespace fs = std::filesystem;

// What three machines and one would have written: the real run and the committed kill matrix, whole
// in `whole`, dealt out to shard-1 ... shard-3.
class MergeDirectories : public ::testing::Test {
 protected:
  void SetUp() override {
    const RunReport run = run_report_from_json(testing::real_run_json(), "real.json");
    matrix = mutate::kill_matrix_from_json(testing::real_kill_matrix_json(), "baseline-cpu.json");
    write_reports(run, whole(), "T2+T3");
    mutate::write_reports(matrix, whole(), "T4-cpu");
    const auto runs = testing::split_run(run, 3);
    const auto matrices = testing::split_matrix(matrix, 3);
    for (unsigned i = 0; i < 3; ++i) {
      write_reports(runs[i], shard(i), "T2+T3");
      mutate::write_reports(matrices[i], shard(i), "T4-cpu");
      write_file_atomic(shard(i) / "bench.json", "{\"schema\": \"mmaemu-bench-t6/1\"}");  // not merged
    }
  }
  fs::path whole() const { return dir / "whole"; }
  fs::path shard(unsigned i) const { return dir / ("shard-" + std::to_string(i + 1)); }
  std::vector<fs::path> shards() const { return {shard(0), shard(1), shard(2)}; }
  InputError error_of(const std::vector<fs::path>& dirs) {
    try {
      merge_directories(dirs, dir / "out");
    } catch (const InputError& e) {
      return e;
    }
    ADD_FAILURE() << "no InputError";
    return InputError("", "");
  }
  testing::TempDir dir;
  mutate::KillMatrix matrix;  // the committed kill matrix, whole
};

TEST_F(MergeDirectories, TheMergedDirectoryEqualsTheUnshardedOne) {
  const auto merged = merge_directories(shards(), dir / "out");
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].file, "T2+T3.json");
  EXPECT_EQ(merged[0].kind, DocumentKind::run_report);
  EXPECT_EQ(merged[0].shards, 3u);
  EXPECT_EQ(merged[0].units, 4u);
  EXPECT_EQ(merged[1].file, "T4-cpu.json");
  // The merge of three shards states the whole matrix's score and count (the committed baseline grows).
  EXPECT_EQ(merged[1].verdicts, "score " + mutate::score_text(matrix.score()));
  for (const char* f : {"T2+T3.json", "T2+T3.xml", "T2+T3.md", "T4-cpu.json", "T4-cpu.md"})
    EXPECT_TRUE(fs::exists(dir / "out" / f)) << f;
  EXPECT_FALSE(fs::exists(dir / "out" / "bench.json"));
  EXPECT_TRUE(compare_directories(whole(), dir / "out").empty());
  const std::string table = merge_table(merged);
  EXPECT_NE(table.find("T4-cpu.json"), std::string::npos) << table;
  EXPECT_NE(table.find(std::to_string(matrix.mutants.size()) + " mutants"), std::string::npos) << table;
}

TEST_F(MergeDirectories, AFileMissingFromAShardNamesIt) {
  fs::remove(shard(1) / "T4-cpu.json");
  EXPECT_EQ(error_of(shards()).where(), (shard(1) / "T4-cpu.json").string());
  EXPECT_FALSE(fs::exists(dir / "out"));  // nothing written
}

TEST_F(MergeDirectories, ADirectoryThatDoesNotExistIsNamed) {
  EXPECT_EQ(error_of({shard(0), dir / "absent", shard(2)}).where(), (dir / "absent").string());
}

TEST_F(MergeDirectories, ShardsOfDifferentCountsNameTheFile) {
  RunReport r = run_report_from_json(read_text_file(shard(2) / "T2+T3.json"), "x");
  r.shard = {3, 4};
  write_reports(r, shard(2), "T2+T3");
  EXPECT_EQ(error_of(shards()).where(), (shard(2) / "T2+T3.json").string());
}

TEST_F(MergeDirectories, TooFewShardDirectoriesAreAnError) {
  EXPECT_NE(std::string(error_of({shard(0), shard(1)}).what()).find("shard 3/3 is missing"), std::string::npos);
}

TEST_F(MergeDirectories, TheOutputMayNotBeAShardDirectory) {
  EXPECT_THROW(merge_directories(shards(), shard(0)), InputError);
}

TEST(Classify, RunReportsAndKillMatricesOnly) {
  EXPECT_EQ(classify(nlohmann::json::parse(testing::real_run_json())), DocumentKind::run_report);
  EXPECT_EQ(classify(nlohmann::json::parse(testing::real_kill_matrix_json())), DocumentKind::kill_matrix);
  EXPECT_EQ(classify(nlohmann::json{{"schema", "mmaemu-bench-t6/1"}}), DocumentKind::other);
  EXPECT_EQ(classify(nlohmann::json::array()), DocumentKind::other);
}

}  // namespace
}  // namespace mmaemu::reportio
