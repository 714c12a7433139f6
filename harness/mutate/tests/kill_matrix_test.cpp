#include "harness/mutate/kill_matrix.hpp"

#include <gtest/gtest.h>

#include "harness/mutate/baseline_diff.hpp"

namespace mmaemu::mutate {
namespace {

Mutant mutant(int id, Expectation e = Expectation::killed) {
  Mutant m;
  m.id = id;
  m.name = "m" + std::to_string(id);
  m.target = "reference/src/x.cpp:f";
  m.fault = "a fault";
  m.expect = e;
  m.tier = "cpu";
  if (e != Expectation::killed) m.justification = "why";
  return m;
}

TestCell cell(const std::string& test, TestOutcome o) {
  TestCell c;
  c.test = test;
  c.outcome = o;
  if (o == TestOutcome::failed) c.exit_code = 1;
  if (o == TestOutcome::crash) c.signal = "SIGSEGV";
  return c;
}

TEST(Judge, CrashOverTimeoutOverFailure) {
  using T = TestOutcome;
  EXPECT_EQ(judge(mutant(1), {cell("a", T::passed), cell("b", T::passed)}).outcome, Outcome::survived);
  EXPECT_EQ(judge(mutant(1), {cell("a", T::failed), cell("b", T::passed)}).outcome, Outcome::killed);
  EXPECT_EQ(judge(mutant(1), {cell("a", T::failed), cell("b", T::timeout)}).outcome, Outcome::timeout);
  EXPECT_EQ(judge(mutant(1), {cell("a", T::timeout), cell("b", T::crash)}).outcome, Outcome::crash);
  EXPECT_EQ(judge(mutant(1), {cell("a", T::failed), cell("b", T::crash)}).killed_by, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(judge(mutant(2, Expectation::equivalent), {cell("a", T::passed)}).outcome, Outcome::equivalent);
  EXPECT_EQ(judge(mutant(2, Expectation::equivalent), {cell("a", T::failed)}).outcome, Outcome::equivalent_killed);
  EXPECT_EQ(judge(mutant(3, Expectation::identity), {cell("a", T::passed)}).outcome, Outcome::identity_survived);
  EXPECT_EQ(judge(mutant(3, Expectation::identity), {cell("a", T::crash)}).outcome, Outcome::identity_killed);
  EXPECT_EQ(judge(mutant(1), {cell("a", T::error)}).outcome, Outcome::error);
}

KillMatrix sample() {
  KillMatrix m;
  m.tier = "T4-cpu";
  m.tests = {{"a", {"sh"}, 0.1, 5}, {"b", {"sh"}, 0.2, 5}};
  m.mutants.push_back(judge(mutant(1), {cell("a", TestOutcome::failed), cell("b", TestOutcome::passed)}));
  m.mutants.push_back(judge(mutant(2), {cell("a", TestOutcome::crash), cell("b", TestOutcome::timeout)}));
  m.mutants.push_back(judge(mutant(3, Expectation::equivalent), {cell("a", TestOutcome::passed), cell("b", TestOutcome::passed)}));
  m.mutants.push_back(judge(mutant(4, Expectation::identity), {cell("a", TestOutcome::passed), cell("b", TestOutcome::passed)}));
  m.planned = 4;
  return m;
}

TEST(KillMatrix, ScoreLeavesOutEquivalentAndIdentity) {
  const KillMatrix m = sample();
  EXPECT_EQ(m.score().killed, 2u);
  EXPECT_EQ(m.score().scored, 2u);
  EXPECT_EQ(score_text(m.score()), "2/2 = 100.0%");
}

TEST(KillMatrix, JsonRoundTrip) {
  const KillMatrix m = sample();
  const KillMatrix back = kill_matrix_from_json(to_json(m), "x.json");
  ASSERT_EQ(back.mutants.size(), 4u);
  EXPECT_EQ(back.mutants[1].outcome, Outcome::crash);
  EXPECT_EQ(back.mutants[1].cells[0].signal, "SIGSEGV");
  EXPECT_EQ(back.mutants[1].killed_by, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(back.mutants[2].mutant.justification, "why");
  EXPECT_EQ(to_json(back), to_json(m));
  const std::string md = to_markdown(m);
  EXPECT_NE(md.find("Mutation score 2/2 = 100.0%"), std::string::npos) << md;
  EXPECT_NE(md.find("**crash** SIGSEGV"), std::string::npos) << md;
}

TEST(BaselineDiff, ReportsEveryChangeAndFlagsRegressions) {
  const KillMatrix before = sample();
  KillMatrix now = sample();
  now.mutants[0] = judge(mutant(1), {cell("a", TestOutcome::failed), cell("b", TestOutcome::failed)});
  now.mutants[1] = judge(mutant(2), {cell("a", TestOutcome::passed), cell("b", TestOutcome::passed)});
  now.mutants.push_back(judge(mutant(5), {cell("a", TestOutcome::failed), cell("b", TestOutcome::passed)}));
  const auto changes = compare_with_baseline(before, now, true);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].text, "M1: killed by [a] before, [a, b] now");
  EXPECT_FALSE(changes[0].regression);
  EXPECT_EQ(changes[1].text, "M2: crash by [a, b] before, survived now (regression: killed before, not now)");
  EXPECT_TRUE(changes[1].regression);
  EXPECT_EQ(changes[2].text, "M5 (m5): new, killed by [a]");
  EXPECT_TRUE(compare_with_baseline(before, before, true).empty());
  KillMatrix fewer = before;
  fewer.mutants.pop_back();
  const auto gone = compare_with_baseline(before, fewer, true, true);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].text, "M4 (m4): identity-survived before, no longer in the catalogue");
  EXPECT_TRUE(compare_with_baseline(before, fewer, true, false).empty());
  // --fast: only killed or not counts.
  EXPECT_EQ(compare_with_baseline(before, now, false).size(), 2u);
}

}  // namespace
}  // namespace mmaemu::mutate
