#include "harness/mutate/catalogue.hpp"

#include <algorithm>

#include "harness/mutate/campaign.hpp"
#include "harness/mutate/campaign_spec.hpp"

#include "harness/mutate/tests/test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_text;

const char* kGood = R"(parts: {t: "the test's code"}
mutants:
  - id: 12
    name: ref-round-nearest
    target: reference/src/tfdpa.cpp:fused_sum
    fault: "rounded to nearest"
    expect: killed
    tier: cpu
    part: t
  - id: 90
    name: identity-a
    target: reference/src/tfdpa.cpp:fused_sum
    fault: "none"
    expect: identity
    justification: "both branches are the same code"
    tier: cpu
    part: t
)";

TEST(Catalogue, LoadsEntriesInOrder) {
  TempDir dir;
  write_text(dir / "c.yaml", kGood);
  const auto m = load_catalogue(dir / "c.yaml");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].id, 12);
  EXPECT_EQ(m[0].expect, Expectation::killed);
  EXPECT_EQ(m[1].expect, Expectation::identity);
  EXPECT_EQ(m[1].justification, "both branches are the same code");
  EXPECT_NE(m[0].fingerprint(), m[1].fingerprint());
}

TEST(Catalogue, EquivalentNeedsAJustification) {
  TempDir dir;
  std::string text = kGood;
  text.replace(text.find("expect: killed"), 14, "expect: equivalent");
  write_text(dir / "c.yaml", text);
  const std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:7:13"), std::string::npos) << e;
  EXPECT_NE(e.find("justification"), std::string::npos) << e;
}

TEST(Catalogue, RejectsADuplicateIdAtItsPlace) {
  TempDir dir;
  std::string text = kGood;
  text.replace(text.find("id: 90"), 6, "id: 12");
  write_text(dir / "c.yaml", text);
  const std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:10:9"), std::string::npos) << e;
  EXPECT_NE(e.find("used twice"), std::string::npos) << e;
}

TEST(Catalogue, RejectsAMisspelledKey) {
  TempDir dir;
  std::string text = kGood;
  text.replace(text.find("fault:"), 6, "faults:");
  write_text(dir / "c.yaml", text);
  const std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:6:5"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'fault'"), std::string::npos) << e;
}

TEST(Catalogue, EachMutantBelongsToAPartTheCatalogueLists) {
  TempDir dir;
  write_text(dir / "c.yaml", kGood);
  EXPECT_EQ(load_catalogue(dir / "c.yaml")[0].part, "t");
  std::string unknown = kGood;
  unknown.replace(unknown.find("part: t"), 7, "part: u");
  write_text(dir / "c.yaml", unknown);
  std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:9:11: unknown part 'u'"), std::string::npos) << e;
  std::string unused = kGood;
  unused.replace(unused.find("parts: {"), 8, "parts: {u: \"nothing\", ");
  write_text(dir / "c.yaml", unused);
  e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("part 'u' has no mutant"), std::string::npos) << e;
}

// The shipped tiers' quick forms hold a mutant of every part of their tiers; one that drops the
// only mutant of a part is refused, naming the part.
TEST(Catalogue, ShippedQuickFormsCoverEveryPart) {
  const std::filesystem::path root = MMAEMU_SOURCE_DIR;
  const std::vector<Mutant> catalogue = load_catalogue(root / "mutants/catalogue.yaml");
  for (const char* tier : {"tiers/T4-cpu.yaml", "tiers/T4-gpu.yaml"}) {
    const CampaignSpec c = load_campaign(root / tier);
    ASSERT_TRUE(c.quick) << tier;
    EXPECT_NO_THROW(check_quick_covers_every_part(catalogue, c)) << tier;
  }
  CampaignSpec cpu = load_campaign(root / "tiers/T4-cpu.yaml");
  std::vector<std::string>& quick = cpu.quick->mutants;
  quick.erase(std::remove(quick.begin(), quick.end(), "80"), quick.end());  // the library model's one
  const std::string e = input_error_of([&] { check_quick_covers_every_part(catalogue, cpu); });
  EXPECT_NE(e.find("no mutant of part(s) library-model"), std::string::npos) << e;
}

}  // namespace
}  // namespace mmaemu::mutate
