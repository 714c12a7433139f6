#include "harness/mutate/campaign_spec.hpp"

#include "harness/mutate/tests/test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_text;

TEST(CampaignSpec, LoadsAndResolvesPaths) {
  TempDir dir;
  write_text(dir / "mutants/catalogue.yaml", "mutants: []\n");
  write_text(dir / "tiers/T4.yaml", R"(tier: T4-cpu
catalogue: ../mutants/catalogue.yaml
catalogue_tiers: [cpu]
program: "{build}/mmaemu-mutant"
workdir: ..
jobs: 3
timeout: {factor: 4, slack_seconds: 1, min_seconds: 2}
tests:
  - name: T2
    command: ["{mmaemu}", run, tiers/T2.yaml, --report-dir, "{scratch}"]
)");
  const CampaignSpec c = load_campaign(dir / "tiers/T4.yaml");
  EXPECT_EQ(c.tier, "T4-cpu");
  EXPECT_EQ(c.catalogue, (dir / "mutants/catalogue.yaml").lexically_normal());
  EXPECT_EQ(c.workdir, dir.path().lexically_normal());
  EXPECT_EQ(c.jobs, 3u);
  EXPECT_DOUBLE_EQ(c.timeout.seconds_for(0.1), 2.0);
  EXPECT_DOUBLE_EQ(c.timeout.seconds_for(10), 41.0);
  ASSERT_EQ(c.tests.size(), 1u);
  const auto argv = expand(c.tests[0], Placeholders{"/bin/mmaemu", "/b", "/s"});
  EXPECT_EQ(argv, (std::vector<std::string>{"/bin/mmaemu", "run", "tiers/T2.yaml", "--report-dir", "/s"}));
  EXPECT_EQ(expand_program(c, "/b"), "/b/mmaemu-mutant");
}

// The shipped program holds no mutant: a campaign must say which mutant program its tests run.
TEST(CampaignSpec, ACampaignNamesItsMutantProgram) {
  TempDir dir;
  write_text(dir / "c.yaml", "mutants: []\n");
  write_text(dir / "a.yaml", "tier: T4\ncatalogue: c.yaml\ncatalogue_tiers: [cpu]\ntests: [{name: a, command: [x]}]\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "a.yaml"); }).find("needs 'program'"), std::string::npos);
  write_text(dir / "b.yaml", "tier: T4\ncatalogue: c.yaml\ncatalogue_tiers: [cpu]\nprogram: \"{bild}/m\"\n"
                             "tests: [{name: a, command: [x]}]\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "b.yaml"); }).find("unknown placeholder {bild}"), std::string::npos);
}

TEST(CampaignSpec, ReportsErrorsWhereTheyAre) {
  TempDir dir;
  write_text(dir / "c.yaml", "mutants: []\n");
  const std::string head = "tier: T4\ncatalogue: c.yaml\ncatalogue_tiers: [cpu]\nprogram: /bin/sh\n";
  write_text(dir / "a.yaml", head + "tests:\n  - name: x\n    comand: [true]\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "a.yaml"); }).find("a.yaml:7:5: unknown key 'comand'"), std::string::npos);
  write_text(dir / "b.yaml", head + "tests:\n  - name: x\n    command: [\"{mmaemu\", run]\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "b.yaml"); }).find("unclosed"), std::string::npos);
  write_text(dir / "d.yaml", head + "tests:\n  - name: x\n    command: [\"{binary}\"]\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "d.yaml"); }).find("unknown placeholder {binary}"), std::string::npos);
  write_text(dir / "e.yaml", "tier: T4\ncatalogue: nowhere.yaml\ncatalogue_tiers: [cpu]\ntests: []\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "e.yaml"); }).find("e.yaml:2:12: mutant catalogue not found"), std::string::npos);
  write_text(dir / "f.yaml", head + "tests:\n  - {name: x, command: [a]}\n  - {name: x, command: [b]}\n");
  EXPECT_NE(input_error_of([&] { load_campaign(dir / "f.yaml"); }).find("used twice"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu::mutate
