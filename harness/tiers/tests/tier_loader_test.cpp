#include <gtest/gtest.h>

#include "harness/tiers/tests/test_files.hpp"
#include "harness/tiers/tier_loader.hpp"

namespace mmaemu {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_text;

// A valid tier file; tests replace one line to break it. Line numbers matter: see the tests.
const char* kTier =
    "tier: T2\n"                                         // 1
    "description: replay\n"                              // 2
    "suites:\n"                                          // 3
    "  - name: fixtures\n"                               // 4
    "    kind: fixture-replay\n"                         // 5
    "    labels: [T2, cpu]\n"                            // 6
    "    fixtures: set\n"                                // 7
    "    backend: reference\n"                           // 8
    "  - name: external\n"                               // 9
    "    kind: external-replay\n"                        // 10
    "    archive: recordings.tar.xz\n"                   // 11
    "    optional: true\n";                              // 12

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

class TierLoader : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir / "set");
    write_text(dir / "set" / "manifest.yaml", "schema: mmaemu-fixtures/1\n");
    write_text(dir / "recordings.tar.xz", "");
  }
  std::filesystem::path write(const std::string& text) {
    const auto p = dir / "T2.yaml";
    write_text(p, text);
    return p;
  }
  std::string at(int line, int column) { return (dir / "T2.yaml").string() + ":" + std::to_string(line) + ":" + std::to_string(column); }
  TempDir dir;
};

TEST_F(TierLoader, LoadsAValidTier) {
  const TierSpec t = load_tier(write(kTier));
  EXPECT_EQ(t.tier, "T2");
  ASSERT_EQ(t.suites.size(), 2u);
  const SuiteSpec& f = t.suites[0];
  EXPECT_EQ(f.id(), "T2.fixtures");
  EXPECT_EQ(f.kind, "fixture-replay");
  EXPECT_EQ(f.labels, (std::vector<std::string>{"T2", "cpu"}));
  EXPECT_EQ(f.path("fixtures"), dir.path() / "set");
  EXPECT_EQ(f.text("backend", "x"), "reference");
  EXPECT_FALSE(f.optional);
  EXPECT_TRUE(t.suites[1].optional);
  EXPECT_EQ(check_inputs(f), "");
  EXPECT_EQ(check_inputs(t.suites[1]), "");
  EXPECT_EQ(f.where, at(4, 5));
}

TEST_F(TierLoader, MisspelledKeyIsReportedWhereItIs) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "    fixtures: set", "    fixture: set"))); });
  EXPECT_EQ(e.where(), at(7, 5));
  EXPECT_NE(std::string(e.what()).find("did you mean 'fixtures'"), std::string::npos) << e.what();
}

TEST_F(TierLoader, MisspelledTopLevelKey) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "description:", "descripton:"))); });
  EXPECT_EQ(e.where(), at(2, 1));
}

TEST_F(TierLoader, WrongTypeIsReportedAtTheValue) {
  auto e = input_error_of([&] { load_tier(write(replace(kTier, "labels: [T2, cpu]", "labels: T2"))); });
  EXPECT_EQ(e.where(), at(6, 13));
  EXPECT_NE(std::string(e.what()).find("a list of strings"), std::string::npos) << e.what();
  e = input_error_of([&] { load_tier(write(replace(kTier, "optional: true", "optional: maybe"))); });
  EXPECT_EQ(e.where(), at(12, 15));
  e = input_error_of([&] { load_tier(write(replace(kTier, "backend: reference", "backend: [reference]"))); });
  EXPECT_EQ(e.where(), at(8, 14));
  e = input_error_of([&] { load_tier(write(replace(kTier, "backend: reference", "backend: fastest"))); });
  EXPECT_EQ(e.where(), at(8, 14));
}

TEST_F(TierLoader, MissingFileIsReportedAtItsPathUnlessOptional) {
  const TierSpec t = load_tier(write(replace(kTier, "fixtures: set", "fixtures: no/such/set")));
  auto e = input_error_of([&] { check_inputs(t.suites[0]); });
  EXPECT_EQ(e.where(), at(7, 15));
  EXPECT_NE(std::string(e.what()).find("fixture set not found at " + (dir.path() / "no/such/set").string()),
            std::string::npos)
      << e.what();

  std::filesystem::remove(dir / "recordings.tar.xz");
  const TierSpec t2 = load_tier(write(kTier));
  EXPECT_EQ(check_inputs(t2.suites[1]),
            "third-party recordings not found at " + (dir.path() / "recordings.tar.xz").string());
  const TierSpec t3 = load_tier(write(replace(kTier, "optional: true", "optional: false")));
  e = input_error_of([&] { check_inputs(t3.suites[1]); });
  EXPECT_EQ(e.where(), at(11, 14));
}

TEST_F(TierLoader, DirectoryWithoutManifestIsMissing) {
  std::filesystem::create_directories(dir / "empty");
  const TierSpec t = load_tier(write(replace(kTier, "fixtures: set", "fixtures: empty")));
  const auto e = input_error_of([&] { check_inputs(t.suites[0]); });
  EXPECT_NE(std::string(e.what()).find("manifest.yaml"), std::string::npos) << e.what();
}

TEST_F(TierLoader, UnknownSuiteKindIsReportedAtTheKind) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "kind: fixture-replay", "kind: fixtures-replay"))); });
  EXPECT_EQ(e.where(), at(5, 11));
  EXPECT_NE(std::string(e.what()).find("known kinds: fixture-replay, external-replay"), std::string::npos) << e.what();
}

TEST_F(TierLoader, KeyOfAnotherKindIsUnknown) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "    optional: true", "    fixtures: set"))); });
  EXPECT_EQ(e.where(), at(12, 5));
}

TEST_F(TierLoader, MissingRequiredKeyIsReportedAtTheEntry) {
  auto e = input_error_of([&] { load_tier(write(replace(kTier, "    archive: recordings.tar.xz\n", ""))); });
  EXPECT_EQ(e.where(), at(9, 5));
  EXPECT_NE(std::string(e.what()).find("'archive'"), std::string::npos) << e.what();
  e = input_error_of([&] { load_tier(write(replace(kTier, "tier: T2\n", ""))); });
  EXPECT_EQ(e.where(), at(1, 1));
}

TEST_F(TierLoader, MissingKindIsReportedBeforeTheKindsKeys) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "    kind: fixture-replay\n", ""))); });
  EXPECT_EQ(e.where(), at(4, 5));
  EXPECT_NE(std::string(e.what()).find("'kind'"), std::string::npos) << e.what();
}

TEST_F(TierLoader, NamesAreSafeForFilesAndTests) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "name: external", "name: ext/ernal"))); });
  EXPECT_EQ(e.where(), at(9, 11));
}

TEST_F(TierLoader, DuplicateSuiteName) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "name: external", "name: fixtures"))); });
  EXPECT_EQ(e.where(), at(9, 5));
}

TEST_F(TierLoader, InvalidYamlIsReportedWhereTheParserStopped) {
  const auto e = input_error_of([&] { load_tier(write(replace(kTier, "[T2, cpu]", "[T2, cpu"))); });
  EXPECT_EQ(e.where().rfind((dir / "T2.yaml").string() + ":", 0), 0u) << e.where();
  EXPECT_NE(e.where(), (dir / "T2.yaml").string());
}

TEST_F(TierLoader, MissingTierFile) {
  const auto e = input_error_of([&] { load_tier(dir / "nope.yaml"); });
  EXPECT_EQ(e.where(), (dir / "nope.yaml").string());
}

}  // namespace
}  // namespace mmaemu
