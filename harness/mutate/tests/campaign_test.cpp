// Whole campaigns with fake tests (shell commands that look at MMAEMU_MUTANT, the switch the campaign sets): a mutant that hangs a
// test and one that crashes it are reported as timeout and crash and do not stop the run.
#include "harness/mutate/campaign.hpp"

#include <nlohmann/json.hpp>

#include "harness/mutate/kill_matrix.hpp"
#include "harness/mutate/tests/test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::read_text;
using testing::TempDir;
using testing::write_text;

const char* kCatalogue = R"(parts: {t: "the test's code"}
mutants:
  - {id: 1, name: fails-a, target: "t.cpp:f", fault: "exit 1", expect: killed, tier: cpu, part: t}
  - {id: 2, name: hangs, target: "t.cpp:f", fault: "loops forever", expect: killed, tier: cpu, part: t}
  - {id: 3, name: crashes, target: "t.cpp:f", fault: "out-of-bounds write", expect: killed, tier: cpu, part: t}
  - {id: 4, name: equivalent, target: "t.cpp:f", fault: "none visible", expect: equivalent, justification: "no input tells", tier: cpu, part: t}
  - {id: 5, name: on-gpu, target: "t.cu:k", fault: "gpu only", expect: killed, tier: gpu, part: t}
  - {id: 90, name: identity, target: "t.cpp:f", fault: "same code", expect: identity, justification: "same code", tier: cpu, part: t}
)";

// Test "a" fails for mutant 1, hangs for 2, crashes for 3; test "b" counts its runs in a file and
// fails for mutant 1 and for 6 (a mutant the catalogue may add to survive: see below).
const char* kTier = R"(tier: T4-test
catalogue: catalogue.yaml
catalogue_tiers: [cpu]
program: /bin/sh              # {mmaemu}: unused by these tests
jobs: 2
timeout: {factor: 1, slack_seconds: 0, min_seconds: 1, confirm_factor: 2}
tests:
  - name: a
    command: [sh, -c, 'case "$MMAEMU_MUTANT" in 1) exit 1;; 2) while :; do :; done;; 3) kill -SEGV $$;; esac']
  - name: b
    command: [sh, -c, 'echo "m$MMAEMU_MUTANT" >> runs.txt; test "$MMAEMU_MUTANT" != 1', "{scratch}"]
)";

struct Campaign {
  TempDir dir;
  Campaign(const std::string& catalogue = kCatalogue, const std::string& tier = kTier) {
    write_text(dir / "catalogue.yaml", catalogue);
    write_text(dir / "T4.yaml", tier);
  }
  MutateOptions options() const {
    MutateOptions o;
    o.tier_file = dir / "T4.yaml";
    o.report_dir = dir / "reports";
    o.quiet = true;
    return o;
  }
  KillMatrix report() const { return kill_matrix_from_json(read_text(dir / "reports/T4-test.json"), "report"); }
  size_t runs_of(const std::string& mutant) const {
    const std::string runs = read_text(dir / "runs.txt");
    size_t n = 0;
    for (size_t at = runs.find(mutant + "\n"); at != std::string::npos; at = runs.find(mutant + "\n", at + 1))
      if (at == 0 || runs[at - 1] == '\n') ++n;
    return n;
  }
};

// A test slower than its limit (a loaded machine) is re-run with a longer one: the mutant is judged
// on that run's outcome, not killed by time, and the cell says that its first run timed out.
TEST(Campaign, ASlowTestIsConfirmedBeforeItCountsAsHung) {
  const std::string catalogue = R"(parts: {t: "the test's code"}
mutants:
  - {id: 7, name: slow, target: "t.cpp:f", fault: "slower, same result", expect: equivalent, justification: "same result", tier: cpu, part: t}
)";
  const std::string tier = R"(tier: T4-test
catalogue: catalogue.yaml
catalogue_tiers: [cpu]
program: /bin/sh              # {mmaemu}: unused by these tests
timeout: {factor: 1, slack_seconds: 0, min_seconds: 1, confirm_factor: 5}
tests:
  - name: a
    command: [sh, -c, 'if [ "$MMAEMU_MUTANT" = 7 ]; then sleep 1.5; fi']
)";
  Campaign c(catalogue, tier);
  EXPECT_EQ(run_mutation_campaign(c.options()), 0);
  const KillMatrix m = c.report();
  ASSERT_EQ(m.mutants.size(), 1u);
  EXPECT_EQ(m.find(7)->outcome, Outcome::equivalent);
  ASSERT_EQ(m.find(7)->cells.size(), 1u);
  EXPECT_EQ(m.find(7)->cells[0].outcome, TestOutcome::passed);
  EXPECT_EQ(m.find(7)->cells[0].first_timeout_seconds, 1.0);
}

TEST(Campaign, HangsAndCrashesAreReportedAndDoNotStopTheRun) {
  Campaign c;
  EXPECT_EQ(run_mutation_campaign(c.options()), 0);
  const KillMatrix m = c.report();
  ASSERT_EQ(m.mutants.size(), 5u);  // the gpu mutant is not selected
  EXPECT_EQ(m.find(1)->outcome, Outcome::killed);
  EXPECT_EQ(m.find(1)->killed_by, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m.find(2)->outcome, Outcome::timeout);
  EXPECT_EQ(m.find(3)->outcome, Outcome::crash);
  EXPECT_EQ(m.find(3)->cells[0].signal, "SIGSEGV");
  EXPECT_EQ(m.find(4)->outcome, Outcome::equivalent);
  EXPECT_EQ(m.find(90)->outcome, Outcome::identity_survived);
  EXPECT_EQ(score_text(m.score()), "3/3 = 100.0%");
  // Every test ran for every mutant (no --fast): the hanging and crashing mutants' "b" included.
  EXPECT_EQ(c.runs_of("m2"), 1u);
  EXPECT_EQ(c.runs_of("m3"), 1u);
  EXPECT_EQ(c.runs_of("m"), 1u);  // the baseline, with the switch unset
  EXPECT_TRUE(std::filesystem::exists(c.dir / "reports/T4-test.md"));
  EXPECT_TRUE(std::filesystem::exists(c.dir / "reports" / m.find(2)->cells[0].log));
}

TEST(Campaign, ASurvivorOrAKilledIdentityFails) {
  std::string catalogue = kCatalogue;
  catalogue += "  - {id: 6, name: survivor, target: \"t.cpp:f\", fault: \"unseen\", expect: killed, tier: cpu, part: t}\n";
  Campaign c(catalogue);
  EXPECT_EQ(run_mutation_campaign(c.options()), 1);
  EXPECT_EQ(c.report().find(6)->outcome, Outcome::survived);

  std::string identity_dies = kCatalogue;
  identity_dies.replace(identity_dies.find("id: 90"), 6, "id: 91");  // test "c" below fails for 91
  Campaign d(identity_dies, std::string(kTier) + "  - name: c\n    command: [sh, -c, 'test \"$MMAEMU_MUTANT\" != 91']\n");
  EXPECT_EQ(run_mutation_campaign(d.options()), 1);
  EXPECT_EQ(d.report().find(91)->outcome, Outcome::identity_killed);
}

TEST(Campaign, FastStopsAtTheFirstKill) {
  Campaign c;
  MutateOptions o = c.options();
  o.fast = true;
  o.only = {"1", "crashes"};
  EXPECT_EQ(run_mutation_campaign(o), 0);
  const KillMatrix m = c.report();
  ASSERT_EQ(m.mutants.size(), 2u);
  EXPECT_EQ(m.find(1)->cells[1].outcome, TestOutcome::not_run);
  EXPECT_EQ(c.runs_of("m1"), 0u);
}

TEST(Campaign, ABaselineThatFailsIsUnusableInput) {
  Campaign c(kCatalogue, std::string(kTier) + "  - name: broken\n    command: [sh, -c, 'exit 4']\n");
  EXPECT_EQ(run_mutation_campaign(c.options()), 2);
  EXPECT_FALSE(std::filesystem::exists(c.dir / "reports/T4-test.json"));
}

TEST(Campaign, ResumeSkipsJudgedMutantsUnlessTheirEntryChanged) {
  Campaign c;
  MutateOptions o = c.options();
  o.only = {"1", "4"};
  EXPECT_EQ(run_mutation_campaign(o), 0);
  EXPECT_EQ(c.runs_of("m1"), 1u);
  // The journal holds 1 and 4; resume with every mutant: only 2, 3 and 90 run.
  o.only.clear();
  o.resume = true;
  EXPECT_EQ(run_mutation_campaign(o), 0);
  EXPECT_EQ(c.runs_of("m1"), 1u);
  EXPECT_EQ(c.runs_of("m4"), 1u);
  EXPECT_EQ(c.runs_of("m90"), 1u);
  EXPECT_EQ(c.report().mutants.size(), 5u);
  // An entry that changed is judged again.
  std::string changed = kCatalogue;
  changed.replace(changed.find("fault: \"exit 1\""), 15, "fault: \"exit 2\"");
  write_text(c.dir / "catalogue.yaml", changed);
  EXPECT_EQ(run_mutation_campaign(o), 0);
  EXPECT_EQ(c.runs_of("m1"), 2u);
  EXPECT_EQ(c.runs_of("m4"), 1u);
}

TEST(Campaign, ComparesWithABaselineKillMatrix) {
  Campaign c;
  EXPECT_EQ(run_mutation_campaign(c.options()), 0);
  std::filesystem::copy_file(c.dir / "reports/T4-test.json", c.dir / "baseline.json");
  MutateOptions o = c.options();
  o.baseline = c.dir / "baseline.json";
  EXPECT_EQ(run_mutation_campaign(o), 0);
  EXPECT_TRUE(c.report().baseline_changes.empty());
  // Mutant 3 no longer crashes test "a": it survives now, a regression.
  std::string tier = kTier;
  tier.replace(tier.find("3) kill -SEGV $$;;"), 18, "");
  write_text(c.dir / "T4.yaml", tier);
  EXPECT_EQ(run_mutation_campaign(o), 1);
  const auto changes = c.report().baseline_changes;
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0], "M3: crash by [a] before, survived now (regression: killed before, not now)");
}

TEST(Campaign, UnknownOnlyIsBadInput) {
  Campaign c;
  MutateOptions o = c.options();
  o.only = {"77"};
  EXPECT_THROW(run_mutation_campaign(o), InputError);
  o.only = {"5"};  // a gpu mutant, not in this campaign's tiers
  EXPECT_THROW(run_mutation_campaign(o), InputError);
}

}  // namespace
}  // namespace mmaemu::mutate
