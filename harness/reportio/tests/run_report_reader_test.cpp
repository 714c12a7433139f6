#include "harness/reportio/run_report_reader.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/report_json.hpp"
#include "harness/reportio/tests/real_reports.hpp"

namespace mmaemu::reportio {
namespace {

std::string error_of(const std::string& text, const std::string& source) {
  try {
    run_report_from_json(text, source);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

// Every field the renderer writes, with a value of its own (known groups, known mismatches, a
// sharded run, text to escape).
RunReport full_report() {
  RunReport run;
  run.tool_version = "0.1.0";
  run.commit = "0123abc";
  run.started_utc = "2026-12-01T06:35:14Z";
  run.host = "builder \"7\"";
  run.environment = {{"compiler", "g++ 12.2.0"}, {"os", "Linux 6.1 x86_64"}, {"worktree", "modified"}};
  run.tier_files = {"tiers/T2.yaml", "tiers/T3.yaml"};
  run.shard = {2, 3};
  SuiteResult s{"T2", "h200-fixtures", {"T2", "cpu"}, Verdict::fail, "2 of 1024 differ", 1024, 2,
                {{"mma/realistic", {512, 0}}, {"mma/specials", {512, 2, "sm90 NaN payload (issue 12)"}}},
                {{"mma/specials", "tile 3 m 0 n 1", "a=[3c00] b=[fc00] c=0", "7fffffff", "ffc00000", true},
                 {"mma/specials", "tile 4 m 2 n 0", "a=[3c00] b=[3c00] c=\x01", "3f800000", "3f800001", false}},
                0.125};
  s.known_mismatched = 2;
  s.position = 4;
  s.coverage = {{"host", {12, {}}},
                {"tc", {4, {{"tc runs the GPU's own profile only (sm90)", {"foreign-target", 8}}}}},
                {"model", {3, {{"no rules for algorithm 13", {"library-algorithm-without-rules", 2, 13}}}}}};
  s.seed = 20261201;
  s.failures = {"required backend 'tiled' ran nothing"};
  SuiteResult skip{"T3", "t3-gpu-quick", {"T3", "gpu"}, Verdict::skip, "no CUDA device", 0, 0, {}, {}, 0};
  skip.position = 7;
  SuiteResult error{"T3", "kernels", {"T3"}, Verdict::error, "x.yaml:4:3: unknown key", 0, 0, {}, {}, 1e-9};
  error.position = 1;
  run.suites = {s, skip, error};
  return run;
}

TEST(RunReportReader, ReadsBackEveryFieldOfARealRun) {
  const std::string& text = testing::real_run_json();
  const RunReport run = run_report_from_json(text, "real.json");
  EXPECT_EQ(report_json::render(run), text);
  ASSERT_EQ(run.suites.size(), 4u);
  EXPECT_EQ(run.suites[0].suite, "h200-fixtures");
  EXPECT_GT(run.suites[0].compared, 0u);
  EXPECT_FALSE(run.suites[0].groups.empty());
  EXPECT_EQ(run.tier_files.size(), 2u);
  // The kernel suite says per backend what it ran, as fields.
  const SuiteResult& t3 = run.suites[3];
  EXPECT_EQ(t3.suite, "t3-host-quick");
  ASSERT_TRUE(t3.coverage.count("host")) << t3.reason;
  EXPECT_GT(t3.coverage.at("host").ran, 0u);
  EXPECT_TRUE(t3.seed.has_value());
}

TEST(RunReportReader, ReadsBackKnownGroupsMismatchesAndTheShard) {
  const std::string text = report_json::render(full_report());
  const RunReport run = run_report_from_json(text, "full.json");
  EXPECT_EQ(report_json::render(run), text);
  EXPECT_EQ(run.shard.index, 2u);
  EXPECT_EQ(run.shard.count, 3u);
  EXPECT_EQ(run.suites[0].groups.at("mma/specials").known_reason, "sm90 NaN payload (issue 12)");
  EXPECT_TRUE(run.suites[0].first_mismatches[0].known);
  EXPECT_FALSE(run.suites[0].first_mismatches[1].known);
  EXPECT_EQ(run.suites[0].known_mismatched, 2u);
  EXPECT_EQ(run.suites[1].position, 7u);
  EXPECT_EQ(run.suites[2].verdict, Verdict::error);
}

TEST(RunReportReader, CoverageDeclinesSeedAndFailuresAreFieldsNotProse) {
  const RunReport run = run_report_from_json(report_json::render(full_report()), "full.json");
  const SuiteResult& s = run.suites[0];
  ASSERT_EQ(s.coverage.size(), 3u);
  EXPECT_EQ(s.coverage.at("host").ran, 12u);
  EXPECT_TRUE(s.coverage.at("host").declines.empty());
  EXPECT_EQ(s.coverage.at("tc").ran, 4u);
  const DeclineTally& tc = s.coverage.at("tc").declines.at("tc runs the GPU's own profile only (sm90)");
  EXPECT_EQ(tc.code, "foreign-target");
  EXPECT_EQ(tc.problems, 8u);
  EXPECT_FALSE(tc.algorithm.has_value());
  const DeclineTally& model = s.coverage.at("model").declines.at("no rules for algorithm 13");
  EXPECT_EQ(model.code, "library-algorithm-without-rules");
  EXPECT_EQ(model.problems, 2u);
  EXPECT_EQ(model.algorithm, 13);
  ASSERT_TRUE(s.seed.has_value());
  EXPECT_EQ(*s.seed, 20261201u);
  EXPECT_EQ(s.failures, std::vector<std::string>{"required backend 'tiled' ran nothing"});
  EXPECT_FALSE(run.suites[1].seed.has_value());
  EXPECT_TRUE(run.suites[1].coverage.empty());
}

// Reports written before decline codes held {detail: problems}: they read, with an empty code.
TEST(RunReportReader, DeclinesWrittenBeforeCodesStillRead) {
  nlohmann::json j = nlohmann::json::parse(report_json::render(full_report()));
  j["suites"][0]["coverage"]["tc"]["declines"] = {{"tc: target sm80 differs from this GPU", 8}};
  const RunReport run = run_report_from_json(j.dump(), "old.json");
  const DeclineTally& t = run.suites[0].coverage.at("tc").declines.at("tc: target sm80 differs from this GPU");
  EXPECT_EQ(t.code, "");
  EXPECT_EQ(t.problems, 8u);
}

TEST(RunReportReader, AReportWrittenBeforePositionsAndShardsStillReads) {
  nlohmann::json j = nlohmann::json::parse(report_json::render(full_report()));
  j.erase("shard");
  for (auto& s : j["suites"]) s.erase("position");
  const RunReport run = run_report_from_json(j.dump(), "old.json");
  EXPECT_FALSE(run.shard.sharded());
  EXPECT_EQ(run.suites[1].position, 0u);
}

TEST(RunReportReader, RejectsWhatIsNotARunReportNamingTheFile) {
  EXPECT_NE(error_of("{", "a.json").find("a.json: not JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"tier\": \"T4-cpu\", \"mutants\": []}", "b.json").find("b.json: not a run report: no \"schema\""),
            std::string::npos);
  EXPECT_NE(error_of("{\"schema\": \"mmaemu-bench-t6/1\"}", "c.json").find("c.json: not a run report: schema"),
            std::string::npos);
  nlohmann::json j = nlohmann::json::parse(report_json::render(full_report()));
  j["suites"][0].erase("verdict");
  EXPECT_NE(error_of(j.dump(), "d.json").find("d.json: not a run report"), std::string::npos);
  j = nlohmann::json::parse(report_json::render(full_report()));
  j["suites"][0]["verdict"] = "maybe";
  EXPECT_NE(error_of(j.dump(), "e.json").find("e.json: unknown verdict 'maybe'"), std::string::npos);
  j = nlohmann::json::parse(report_json::render(full_report()));
  j["suites"][0]["mismatched"] = -1;
  EXPECT_NE(error_of(j.dump(), "f.json").find("f.json: \"mismatched\" is not a count"), std::string::npos);
  j = nlohmann::json::parse(report_json::render(full_report()));
  j["shard"] = {{"index", 4}, {"count", 3}};
  EXPECT_NE(error_of(j.dump(), "g.json").find("g.json: shard 4/3"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu::reportio
