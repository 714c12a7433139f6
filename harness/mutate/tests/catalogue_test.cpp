#include "harness/mutate/catalogue.hpp"

#include "harness/mutate/tests/test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_text;

const char* kGood = R"(mutants:
  - id: 12
    name: ref-round-nearest
    target: reference/src/tfdpa.cpp:fused_sum
    fault: "rounded to nearest"
    expect: killed
    tier: cpu
  - id: 90
    name: identity-a
    target: reference/src/tfdpa.cpp:fused_sum
    fault: "none"
    expect: identity
    justification: "both branches are the same code"
    tier: cpu
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
  EXPECT_NE(e.find("c.yaml:6:13"), std::string::npos) << e;
  EXPECT_NE(e.find("justification"), std::string::npos) << e;
}

TEST(Catalogue, RejectsADuplicateIdAtItsPlace) {
  TempDir dir;
  std::string text = kGood;
  text.replace(text.find("id: 90"), 6, "id: 12");
  write_text(dir / "c.yaml", text);
  const std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:8:9"), std::string::npos) << e;
  EXPECT_NE(e.find("used twice"), std::string::npos) << e;
}

TEST(Catalogue, RejectsAMisspelledKey) {
  TempDir dir;
  std::string text = kGood;
  text.replace(text.find("fault:"), 6, "faults:");
  write_text(dir / "c.yaml", text);
  const std::string e = input_error_of([&] { load_catalogue(dir / "c.yaml"); });
  EXPECT_NE(e.find("c.yaml:5:5"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'fault'"), std::string::npos) << e;
}

}  // namespace
}  // namespace mmaemu::mutate
