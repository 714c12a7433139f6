// Compile-time variants (`variants:` in a T4 tier file) and the `device: gpu` skip: the section's
// schema and placeholders, a campaign whose mutants each run their own program (built by a fake build
// command: a shell script that writes a shell script), a build that fails, a variant missing under
// --no-build, and a GPU tier on a machine without a GPU.
#include <nlohmann/json.hpp>

#include "harness/mutate/campaign.hpp"
#include "harness/mutate/campaign_spec.hpp"
#include "harness/mutate/kill_matrix.hpp"
#include "harness/mutate/tests/test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::input_error_of;
using testing::read_text;
using testing::TempDir;
using testing::write_text;

const char* kCatalogue = R"(parts: {t: "the test's code"}
mutants:
  - {id: 101, name: kernel-fault, target: "k.cu:f", fault: "exit 1", expect: killed, tier: gpu, part: t}
  - {id: 190, name: kernel-identity, target: "k.cu:f", fault: "same code", expect: identity, justification: "same", tier: gpu, part: t}
)";

// A variant program records which program it is and which mutant the switch names; mutant 101's
// variant fails its test.
const char* kMakeVariant = R"(mkdir -p "$1"
printf '#!/bin/sh\necho "v%s m$MMAEMU_MUTANT" >> runs.txt\ntest %s != 101\n' "$2" "$2" > "$1/prog-$2"
chmod +x "$1/prog-$2"
echo "built $2" >> built.txt
)";

const char* kTier = R"(tier: T4-gpu-test
catalogue: catalogue.yaml
catalogue_tiers: [gpu]
device: gpu
timeout: {factor: 1, slack_seconds: 5, min_seconds: 5}
variants:
  build: [sh, make-variant.sh, "{build}/variants", "{id}"]
  program: "{build}/variants/prog-{id}"
tests:
  - name: a
    command: ["{mmaemu}"]
)";

struct GpuCampaign {
  TempDir dir;
  GpuCampaign(const std::string& tier = kTier) {
    write_text(dir / "catalogue.yaml", kCatalogue);
    write_text(dir / "T4.yaml", tier);
    write_text(dir / "make-variant.sh", kMakeVariant);
    write_text(dir / "base.sh", "#!/bin/sh\necho \"base m$MMAEMU_MUTANT\" >> runs.txt\n");
    std::filesystem::permissions(dir / "base.sh", std::filesystem::perms::owner_all);
  }
  MutateOptions options() const {
    MutateOptions o;
    o.tier_file = dir / "T4.yaml";
    o.report_dir = dir / "reports";
    o.quiet = true;
    o.mmaemu = (dir / "base.sh").string();
    o.build = (dir / "build").string();
    o.gpu_unavailable = [] { return std::optional<std::string>(); };  // a GPU is there
    return o;
  }
};

TEST(Variants, ParsedWithTheirPlaceholders) {
  GpuCampaign c;
  const CampaignSpec s = load_campaign(c.dir / "T4.yaml");
  EXPECT_TRUE(s.needs_gpu);
  ASSERT_TRUE(s.variants.has_value());
  EXPECT_EQ(expand_build(*s.variants, "/b", 110),
            (std::vector<std::string>{"sh", "make-variant.sh", "/b/variants", "110"}));
  EXPECT_EQ(expand_program(*s.variants, "/b", 110), "/b/variants/prog-110");
  EXPECT_NE(s.variants->where.find("T4.yaml:7:3"), std::string::npos) << s.variants->where;
  // Without the keys: a CPU campaign of one program.
  write_text(c.dir / "plain.yaml", "tier: T\ncatalogue: catalogue.yaml\ncatalogue_tiers: [cpu]\nprogram: /bin/sh\n"
                                      "tests: [{name: a, command: [x]}]\n");
  const CampaignSpec plain = load_campaign(c.dir / "plain.yaml");
  EXPECT_FALSE(plain.needs_gpu);
  EXPECT_FALSE(plain.variants.has_value());
}

TEST(Variants, SchemaErrorsAreReportedWhereTheyAre) {
  GpuCampaign c;
  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string tier = kTier;
    const size_t at = tier.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    tier.replace(at, from.size(), to);
    write_text(c.dir / "bad.yaml", tier);
    return input_error_of([&] { load_campaign(c.dir / "bad.yaml"); });
  };
  EXPECT_NE(error_of("  program:", "  progam:").find("bad.yaml:8:3: unknown key 'progam'"), std::string::npos);
  EXPECT_NE(error_of("device: gpu", "device: tpu").find("bad.yaml:4:9"), std::string::npos);
  EXPECT_NE(error_of("prog-{id}", "prog").find("must hold {id}"), std::string::npos);
  EXPECT_NE(error_of("\"{id}\"]", "\"{mmaemu}\"]").find("unknown placeholder {mmaemu} in '{mmaemu}'; known: {build}, {id}"),
            std::string::npos);
  EXPECT_NE(error_of("  build: [sh, make-variant.sh, \"{build}/variants\", \"{id}\"]\n", "").find("lacks the required key 'build'"),
            std::string::npos);
}

TEST(Variants, EachMutantRunsItsOwnBuiltVariant) {
  GpuCampaign c;
  EXPECT_EQ(run_mutation_campaign(c.options()), 0);
  const KillMatrix m = kill_matrix_from_json(read_text(c.dir / "reports/T4-gpu-test.json"), "report");
  EXPECT_EQ(m.find(101)->outcome, Outcome::killed);
  EXPECT_EQ(m.find(190)->outcome, Outcome::identity_survived);
  // The baseline ran the running program with no mutant; each mutant its own variant.
  EXPECT_EQ(read_text(c.dir / "runs.txt"), "base m\nv101 m101\nv190 m190\n");
  EXPECT_EQ(read_text(c.dir / "built.txt"), "built 101\nbuilt 190\n");
  EXPECT_TRUE(std::filesystem::exists(c.dir / "reports/T4-gpu-test-logs/build/101.log"));
}

TEST(Variants, NoBuildTakesPrebuiltVariantsAndNamesAMissingOne) {
  GpuCampaign c;
  MutateOptions o = c.options();
  o.build_variants = false;
  const std::string e = input_error_of([&] { run_mutation_campaign(o); });
  EXPECT_NE(e.find("the variant program of mutant 101 is missing: " + (c.dir / "build/variants/prog-101").string()),
            std::string::npos) << e;
  EXPECT_FALSE(std::filesystem::exists(c.dir / "built.txt"));
  EXPECT_FALSE(std::filesystem::exists(c.dir / "runs.txt"));  // not even the baseline ran
  // Built beforehand (elsewhere), they are taken as they are.
  EXPECT_EQ(run_mutation_campaign(c.options()), 0);
  std::filesystem::remove(c.dir / "built.txt");
  EXPECT_EQ(run_mutation_campaign(o), 0);
  EXPECT_FALSE(std::filesystem::exists(c.dir / "built.txt"));
}

TEST(Variants, ABuildThatFailsNamesItsLog) {
  std::string tier = kTier;
  tier.replace(tier.find("[sh, make-variant.sh"), 20, "[sh, -c, 'echo no compiler; exit 3', make-variant.sh");
  GpuCampaign c(tier);
  const std::string e = input_error_of([&] { run_mutation_campaign(c.options()); });
  EXPECT_NE(e.find("building the variant of mutant 101"), std::string::npos) << e;
  EXPECT_NE(e.find("failed with exit 3; log: " + (c.dir / "reports/T4-gpu-test-logs/build/101.log").string()),
            std::string::npos) << e;
  EXPECT_EQ(read_text(c.dir / "reports/T4-gpu-test-logs/build/101.log"), "no compiler\n");
}

TEST(Variants, AGpuTierWithoutAGpuIsSkippedBeforeAnythingIsBuilt) {
  GpuCampaign c;
  MutateOptions o = c.options();
  o.gpu_unavailable = [] { return std::optional<std::string>("no CUDA device: none here"); };
  EXPECT_EQ(run_mutation_campaign(o), 2);
  o.ctest = true;
  EXPECT_EQ(run_mutation_campaign(o), kExitSkipped);
  EXPECT_FALSE(std::filesystem::exists(c.dir / "built.txt"));
  EXPECT_FALSE(std::filesystem::exists(c.dir / "runs.txt"));
}

}  // namespace
}  // namespace mmaemu::mutate
