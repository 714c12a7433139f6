#include "harness/reportio/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/reportio/differences_output.hpp"
#include "harness/reportio/normalise.hpp"
#include "harness/reportio/tests/real_reports.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::reportio {
namespace {

using nlohmann::json;
using K = Difference::Kind;

json real() { return json::parse(testing::real_run_json()); }

TEST(CompareJson, ARunEqualsItself) { EXPECT_TRUE(compare_json(real(), real()).empty()); }

TEST(CompareJson, FindsAChangedMismatchedCount) {
  json after = real();
  after["suites"][2]["mismatched"] = 12;
  const auto d = compare_json(real(), after);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, K::changed);
  EXPECT_EQ(d[0].path, "suites[2].mismatched");
  EXPECT_EQ(d[0].before, 0);
  EXPECT_EQ(d[0].after, 12);
  EXPECT_EQ(format_difference(d[0]), "suites[2].mismatched: 0 before, 12 after");
}

TEST(CompareJson, FindsAChangedVerdict) {
  json after = real();
  after["suites"][0]["verdict"] = "fail";
  const auto d = compare_json(real(), after);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].path, "suites[0].verdict");
  EXPECT_EQ(d[0].before, "pass");
  EXPECT_EQ(d[0].after, "fail");
}

TEST(CompareJson, FindsAnAddedSuiteOnceAsALength) {
  json after = real();
  after["suites"].push_back(after["suites"][0]);
  const auto d = compare_json(real(), after);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, K::length);
  EXPECT_EQ(d[0].path, "suites");
  EXPECT_EQ(d[0].before, 4);
  EXPECT_EQ(d[0].after, 5);
  EXPECT_EQ(format_difference(d[0]), "suites: 4 elements before, 5 after");
}

TEST(CompareJson, FindsKeysOnOneSideAndQuotesKeysThatAreNotWords) {
  json before = real(), after = real();
  const std::string group = before["suites"][0]["groups"].begin().key();  // "mma.m16n8k16.../realistic"
  after["suites"][0]["groups"].erase(group);
  after["suites"][0]["new_field"] = true;
  const auto d = compare_json(before, after);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].kind, K::removed);
  EXPECT_EQ(d[0].path, "suites[0].groups[" + json(group).dump() + "]");
  EXPECT_EQ(d[1].kind, K::added);
  EXPECT_EQ(d[1].path, "suites[0].new_field");
}

TEST(CompareJson, DroppedKeysAreDropped) {
  json after = real();
  after["suites"][0]["seconds"] = 1234.5;
  after["started_utc"] = "2099-01-01T00:00:00Z";
  after["commit"] = "feedface";
  after["host"] = "elsewhere";
  after["environment"]["tool"] = "/opt/other/bin/tool";  // a path
  EXPECT_TRUE(compare_json(real(), after).empty());
  json km = json::parse(testing::real_kill_matrix_json()), km_after = km;
  km_after["started"] = "2099-01-01T00:00:00Z";
  km_after["tests"][0]["baseline_seconds"] = 99.0;
  km_after["tests"][0]["timeout_seconds"] = 999.0;
  km_after["mutants"][0]["seconds"] = 99.0;
  km_after["mutants"][0]["tests"]["T2"]["log"] = "elsewhere/T2.log";
  km_after["mutants"][0]["tests"]["T2"]["seconds"] = 99.0;
  EXPECT_TRUE(compare_json(km, km_after).empty());
}

TEST(CompareJson, WhatIsNotDroppedIsCompared) {
  json after = real();
  after["environment"]["compiler"] = "clang 14.0.6";  // not a path: a different build
  after["tool_version"] = "0.2.0";
  after["suites"][1]["commit_note"] = "kept";  // only the key "commit" itself is dropped
  EXPECT_EQ(compare_json(real(), after).size(), 3u);
}

TEST(Normalise, PathsAreRecognised) {
  EXPECT_TRUE(looks_like_path("/usr/bin/g++"));
  EXPECT_TRUE(looks_like_path("./build/mmaemu"));
  EXPECT_TRUE(looks_like_path("fixtures/h200"));
  EXPECT_FALSE(looks_like_path("nvcc 13.0.88 / g++ 12.2.0"));
  EXPECT_FALSE(looks_like_path("clean"));
}

class CompareDirectories : public ::testing::Test {
 protected:
  void put(const std::filesystem::path& file, const json& j) { write_file_atomic(file, j.dump(2)); }
  testing::TempDir a, b;
};

TEST_F(CompareDirectories, NamesTheFileAndThePathInIt) {
  json after = real();
  after["suites"][3]["mismatched"] = 1;
  put(a / "steps/T2/T2.json", real());
  put(b / "steps/T2/T2.json", after);
  const auto d = compare_directories(a.path(), b.path());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].path, "steps/T2/T2.json: suites[3].mismatched");
}

TEST_F(CompareDirectories, AFileOnOneSideIsADifference) {
  put(a / "T2.json", real());
  put(b / "T2.json", real());
  put(b / "extra/T3.json", real());
  put(a / "gone.json", json::object());
  const auto d = compare_directories(a.path(), b.path());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].path, "extra/T3.json");
  EXPECT_EQ(d[0].kind, K::added);
  EXPECT_EQ(format_difference(d[0]), "extra/T3.json: only after");
  EXPECT_EQ(d[1].path, "gone.json");
  EXPECT_EQ(d[1].kind, K::removed);
}

TEST_F(CompareDirectories, RenderingsLogsAndJournalsAreNotCompared) {
  put(a / "T2.json", real());
  put(b / "T2.json", real());
  write_file_atomic(a / "T2.md", "# one");
  write_file_atomic(b / "T2.xml", "<x/>");
  write_file_atomic(b / "T4-cpu-logs/1/T2.log", "log");
  write_file_atomic(b / "T4-cpu.journal.jsonl", "{}\n");
  EXPECT_TRUE(compare_directories(a.path(), b.path()).empty());
}

TEST_F(CompareDirectories, UnreadableInputIsAnInputErrorNamingIt) {
  write_file_atomic(a / "T2.json", "{ not json");
  write_file_atomic(b / "T2.json", "{}");
  try {
    compare_directories(a.path(), b.path());
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), (a / "T2.json").string());
  }
  EXPECT_THROW(compare_paths(a / "absent", b.path()), InputError);
  EXPECT_THROW(compare_paths(a / "T2.json", b.path()), InputError);  // a file and a directory
}

TEST(DifferencesOutput, AScreenfulThenACount) {
  EXPECT_EQ(format_differences({}), "0 differences\n");
  std::vector<Difference> many(25, Difference{K::changed, "x", 1, 2});
  const std::string text = format_differences(many);
  EXPECT_EQ(text.rfind("25 differences\n", 0), 0u);
  EXPECT_NE(text.find("\n... and 5 more\n"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 20 + 1);
  const json j = json::parse(differences_json(many, "before", "after"));
  EXPECT_EQ(j["count"], 25);
  EXPECT_EQ(j["differences"].size(), 25u);
  EXPECT_EQ(j["differences"][0]["kind"], "changed");
  EXPECT_EQ(j["dropped"].size(), drop_rules().size());
}

}  // namespace
}  // namespace mmaemu::reportio
