#include "harness/tiers/known_mismatches.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/core/comparator.hpp"
#include "harness/core/report_junit.hpp"
#include "harness/core/report_markdown.hpp"
#include "harness/tiers/runner.hpp"
#include "harness/tiers/tests/test_files.hpp"
#include "harness/tiers/tier_loader.hpp"
#include "harness/core/verdict_table.hpp"

namespace mmaemu {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_fixture_set;
using testing::write_text;

const std::string kKnown = "H200/E4M3/fp16-out";
const std::string kReason = "FP8 with fp16 accumulation on Hopper matches no model yet";

SuiteSpec spec_with(std::vector<KnownMismatch> known) {
  SuiteSpec s;
  s.tier = "T2";
  s.name = "km-external";
  s.tier_file = "tiers/T2.yaml";
  s.known_mismatches = std::move(known);
  return s;
}

Mismatch mismatch_in(const std::string& group) { return {group, "line 1", "a=[00] b=[00] c=0000", "3c00", "3c01"}; }

// A result as a kind leaves it: counts per group and the verdict from the counts.
SuiteResult result_with(const std::map<std::string, GroupCount>& groups) {
  SuiteResult r;
  r.tier = "T2";
  r.suite = "km-external";
  for (const auto& [name, count] : groups) {
    r.groups[name] = count;
    r.compared += count.compared;
    r.mismatched += count.mismatched;
    if (count.mismatched) r.first_mismatches.push_back(mismatch_in(name));
  }
  set_verdict_from_counts(r);
  return r;
}

TEST(KnownMismatches, KnownGroupWithMismatchesPassesAndKeepsTheCounts) {
  SuiteResult r = result_with({{kKnown, {100, 40}}, {"H200/fp16/fp32-out", {100, 0}}});
  ASSERT_EQ(r.verdict, Verdict::fail);
  apply_known_mismatches(r, spec_with({{kKnown, kReason, "T2.yaml:9:9"}}));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  EXPECT_EQ(r.mismatched, 40u);
  EXPECT_EQ(r.known_mismatched, 40u);
  EXPECT_EQ(r.groups.at(kKnown).mismatched, 40u);
  EXPECT_EQ(r.groups.at(kKnown).known_reason, kReason);
  EXPECT_FALSE(r.groups.at("H200/fp16/fp32-out").known());
  ASSERT_EQ(r.first_mismatches.size(), 1u);
  EXPECT_TRUE(r.first_mismatches[0].known) << "examples of known groups stay, marked";
  EXPECT_EQ(r.reason, "known mismatches: " + kKnown + " (40/100)");
}

// Known mismatches forgive mismatched outputs only: a suite that also failed for another reason
// (a required backend that did not run) keeps failing, with that reason.
TEST(KnownMismatches, OtherFailuresOfTheSuiteStand) {
  SuiteResult r = result_with({{kKnown, {100, 40}}});
  r.failures.push_back("required backend 'tiled' did not run");
  r.reason += "; " + r.failures.back();
  apply_known_mismatches(r, spec_with({{kKnown, kReason, ""}}));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.reason, "required backend 'tiled' did not run; known mismatches: " + kKnown + " (40/100)");
}

TEST(KnownMismatches, KnownGroupWithoutMismatchesFails) {
  SuiteResult r = result_with({{kKnown, {100, 0}}});
  apply_known_mismatches(r, spec_with({{kKnown, kReason, ""}}));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.reason, "known mismatch " + kKnown + " no longer occurs: remove it from tiers/T2.yaml");
}

TEST(KnownMismatches, KnownEntryNamingNoGroupFails) {
  SuiteResult r = result_with({{kKnown, {100, 3}}});
  apply_known_mismatches(r, spec_with({{kKnown, kReason, ""}, {"H200/E4M3/fp61-out", "typo", ""}}));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.reason, "known mismatch H200/E4M3/fp61-out names no group of this suite; known mismatches: " + kKnown +
                          " (3/100)");
  EXPECT_EQ(r.known_mismatched, 3u);
}

TEST(KnownMismatches, MismatchOutsideKnownGroupsFails) {
  SuiteResult r = result_with({{kKnown, {100, 40}}, {"H200/fp16/fp32-out", {100, 2}}});
  apply_known_mismatches(r, spec_with({{kKnown, kReason, ""}}));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.known_mismatched, 40u);
  EXPECT_EQ(r.reason.rfind("2 of 200 outputs differ outside the known mismatches: H200/fp16/fp32-out (2/100)", 0), 0u)
      << r.reason;
  ASSERT_EQ(r.first_mismatches.size(), 2u);
  EXPECT_NE(r.first_mismatches[0].known, r.first_mismatches[1].known);
}

TEST(KnownMismatches, SkippedAndErrorSuitesKeepTheirVerdict) {
  SuiteResult skipped;
  skipped.verdict = Verdict::skip;
  skipped.reason = "third-party recordings not found";
  apply_known_mismatches(skipped, spec_with({{kKnown, kReason, ""}}));
  EXPECT_EQ(skipped.verdict, Verdict::skip);
  EXPECT_EQ(skipped.reason, "third-party recordings not found");

  SuiteResult error = result_with({{kKnown, {100, 40}}});
  error.verdict = Verdict::error;
  error.reason = "not replayed: B200/x";
  apply_known_mismatches(error, spec_with({{kKnown, kReason, ""}}));
  EXPECT_EQ(error.verdict, Verdict::error);
  EXPECT_EQ(error.reason, "not replayed: B200/x");
  EXPECT_EQ(error.known_mismatched, 40u);
}

TEST(KnownMismatches, ReportsShowKnownGroupsButFailuresOnlyTheOthers) {
  SuiteResult passing = result_with({{kKnown, {100, 40}}});
  apply_known_mismatches(passing, spec_with({{kKnown, kReason, ""}}));
  SuiteResult failing = result_with({{kKnown, {100, 40}}, {"H200/fp16/fp32-out", {100, 2}}});
  failing.suite = "other";
  apply_known_mismatches(failing, spec_with({{kKnown, kReason, ""}}));
  RunReport run;
  run.suites = {passing, failing};
  const std::string line = kKnown + ": 40 of 100 differ (known: " + kReason + ")";

  const std::string table = verdict_table::render(run);
  EXPECT_NE(table.find("T2.km-external (pass, with known mismatches):\n  " + line), std::string::npos) << table;
  EXPECT_NE(table.find("H200/fp16/fp32-out line 1\n"), std::string::npos) << table;
  EXPECT_EQ(table.find(kKnown + " line 1"), std::string::npos) << "no known example among the failures\n" << table;
  EXPECT_NE(table.find("known"), std::string::npos);

  const std::string md = report_markdown::render(run);
  EXPECT_NE(md.find("| T2.km-external |  | pass | 100 | 40 | 40 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- " + line), std::string::npos) << md;
  EXPECT_NE(md.find(kKnown + " line 1 (known)\n"), std::string::npos) << "examples of known groups, marked\n" << md;

  const std::string xml = report_junit::render(run);
  EXPECT_EQ(xml.find("<skipped"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<system-out>" + report_junit::xml_escape(line)), std::string::npos) << xml;
  const size_t failure = xml.find("<failure");
  ASSERT_NE(failure, std::string::npos);
  const std::string failure_text = xml.substr(failure, xml.find("</failure>") - failure);
  EXPECT_EQ(failure_text.find(kKnown + " line 1"), std::string::npos) << failure_text;
  EXPECT_NE(failure_text.find("H200/fp16/fp32-out line 1"), std::string::npos) << failure_text;
}

// The tier file's side: schema checks, and the runner end to end on a fixture set that differs.
class KnownMismatchesInTier : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::Spoilers spoil;
    spoil.arrays = [](NpyArray&, NpyArray&, NpyArray&, NpyArray& d) { d.values[7] ^= 0x80000000u; };
    write_fixture_set(dir / "bad", {"mma.m16n8k16.f32.bf16.bf16.f32"}, {{"realistic", 2}}, spoil);
  }
  std::filesystem::path tier(const std::string& known_entries) {
    const auto p = dir / "T2.yaml";
    write_text(p,
               "tier: T2\n"                           // 1
               "suites:\n"                            // 2
               "  - name: fixtures\n"                 // 3
               "    kind: fixture-replay\n"           // 4
               "    fixtures: bad\n"                  // 5
               "    known_mismatches:\n"              // 6
               + known_entries);                      // 7...
    return p;
  }
  std::string at(int line, int column) {
    return (dir / "T2.yaml").string() + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
  RunOptions options(const std::filesystem::path& tier_file) {
    RunOptions o;
    o.tier_files = {tier_file};
    o.report_dir = dir / "reports";
    o.quiet = true;
    return o;
  }
  nlohmann::json report() {
    std::ifstream in(dir / "reports" / "T2.json");
    return nlohmann::json::parse(in);
  }
  TempDir dir;
  const std::string group = "mma.m16n8k16.f32.bf16.bf16.f32/realistic";
};

TEST_F(KnownMismatchesInTier, LoadsTheEntries) {
  const TierSpec t = load_tier(tier("      - group: " + group + "\n        reason: \"flipped on purpose\"\n"));
  ASSERT_EQ(t.suites[0].known_mismatches.size(), 1u);
  EXPECT_EQ(t.suites[0].known_mismatches[0].group, group);
  EXPECT_EQ(t.suites[0].known_mismatches[0].reason, "flipped on purpose");
  EXPECT_EQ(t.suites[0].known_mismatches[0].where, at(7, 9));
  EXPECT_FALSE(t.suites[0].has("known_mismatches")) << "a common key, not one of the kind's";
}

TEST_F(KnownMismatchesInTier, MissingReasonIsReportedAtTheEntry) {
  const auto e = input_error_of([&] { load_tier(tier("      - group: " + group + "\n")); });
  EXPECT_EQ(e.where(), at(7, 9));
  EXPECT_NE(std::string(e.what()).find("lacks the required key 'reason'"), std::string::npos) << e.what();
}

TEST_F(KnownMismatchesInTier, UnknownKeyIsReportedWhereItIs) {
  const auto e = input_error_of(
      [&] { load_tier(tier("      - group: " + group + "\n        reasn: x\n")); });
  EXPECT_EQ(e.where(), at(8, 9));
  EXPECT_NE(std::string(e.what()).find("did you mean 'reason'"), std::string::npos) << e.what();
}

TEST_F(KnownMismatchesInTier, WrongTypesAreReportedAtTheValue) {
  auto e = input_error_of([&] { load_tier(tier("      group: x\n")); });
  EXPECT_EQ(e.where(), at(7, 7));
  e = input_error_of([&] { load_tier(tier("      - " + group + "\n")); });
  EXPECT_EQ(e.where(), at(7, 9));
  e = input_error_of([&] { load_tier(tier("      - group: [a, b]\n        reason: x\n")); });
  EXPECT_EQ(e.where(), at(7, 16));
}

TEST_F(KnownMismatchesInTier, GroupListedTwiceIsAnError) {
  const std::string entry = "      - group: " + group + "\n        reason: x\n";
  const auto e = input_error_of([&] { load_tier(tier(entry + entry)); });
  EXPECT_EQ(e.where(), at(9, 16));
}

TEST_F(KnownMismatchesInTier, RunnerPassesAKnownMismatchAndReportsIt) {
  EXPECT_EQ(run_tiers(options(tier("      - group: " + group + "\n        reason: flipped on purpose\n"))), 0);
  const auto s = report()["suites"][0];
  EXPECT_EQ(s["verdict"], "pass");
  EXPECT_EQ(s["mismatched"], 1);
  EXPECT_EQ(s["known_mismatched"], 1);
  EXPECT_EQ(s["groups"][group]["known_reason"], "flipped on purpose");
  EXPECT_EQ(s["first_mismatches"][0]["known"], true);
}

TEST_F(KnownMismatchesInTier, RunnerFailsOnAStaleOrUnknownEntry) {
  EXPECT_EQ(run_tiers(options(tier("      - group: " + group + "\n        reason: r\n"
                                   "      - group: mma.x/realistic\n        reason: r\n"))),
            1);
  const auto s = report()["suites"][0];
  EXPECT_EQ(s["verdict"], "fail");
  EXPECT_NE(s["reason"].get<std::string>().find("known mismatch mma.x/realistic names no group of this suite"),
            std::string::npos)
      << s["reason"];
}

}  // namespace
}  // namespace mmaemu
