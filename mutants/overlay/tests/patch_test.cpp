// The weaver: anchors match as written (white space aside) and only once; each kind is woven as its
// header says; an entry that no longer fits its file is an error that names the entry.
#include "mutants/overlay/patch.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mmaemu::overlay {
namespace {

Patch patch(int id, Kind kind, std::string find, std::optional<std::string> replace) {
  Patch p;
  p.id = id;
  p.name = "m" + std::to_string(id);
  p.file = "f.cpp";
  p.kind = kind;
  p.find = std::move(find);
  p.replace = std::move(replace);
  p.where = "catalogue.yaml:" + std::to_string(10 * id);
  return p;
}

// The woven text without the two lines the weaver puts on top (its banner and the switch's include).
std::string body(const std::string& woven) {
  const size_t first = woven.find('\n'), second = woven.find('\n', first + 1);
  EXPECT_NE(woven.substr(first + 1, second - first).find("#include \"mutants/switch.hpp\""), std::string::npos);
  return woven.substr(second + 1);
}

std::string error_of(const std::string& text, const std::vector<Patch>& patches) {
  try {
    weave(text, patches);
  } catch (const PatchError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Anchor, WhiteSpaceRunsAreEquivalentAndTokensStayWhole) {
  const std::string text = "int steps = 1;\nint step = a  +\n   b;\n";
  EXPECT_EQ(find_anchor(text, "a + b").size(), 1u);
  EXPECT_EQ(find_anchor(text, " a +\tb ").size(), 1u);
  EXPECT_EQ(find_anchor(text, "a+b").size(), 0u);          // a space in the file needs one in the anchor
  EXPECT_EQ(find_anchor(text, "int step").size(), 1u);     // not the start of "int steps"
  EXPECT_EQ(find_anchor(text, "tep = a").size(), 0u);      // not inside "step"
  const auto at = find_anchor(text, "step = a + b;");
  ASSERT_EQ(at.size(), 1u);
  EXPECT_EQ(text.substr(at[0].begin, at[0].end - at[0].begin), "step = a  +\n   b;");
}

TEST(Weave, EachKindTakesItsForm) {
  const std::string text = "int f(int x) {\n  x += 1;\n  return x * 2;\n}\n";
  EXPECT_EQ(body(weave(text, {patch(3, Kind::statement, "x += 1;", "x += 2;")})),
            "int f(int x) {\n  if (MMAEMU_MUTANT(3)) {\nx += 2;\n} else {\nx += 1;\n}\n  return x * 2;\n}\n");
  EXPECT_EQ(body(weave(text, {patch(4, Kind::expression, "x * 2", "x * 3")})),
            "int f(int x) {\n  x += 1;\n  return (MMAEMU_MUTANT(4) ? (x * 3) : (x * 2));\n}\n");
  EXPECT_EQ(body(weave(text, {patch(5, Kind::before, "return x * 2;", "x = 0;")})),
            "int f(int x) {\n  x += 1;\n  if (MMAEMU_MUTANT(5)) {\nx = 0;\n}\nreturn x * 2;\n}\n");
}

TEST(Weave, MutantsOfOneAnchorChainInCatalogueOrderAndIdentityControlsAreGenerated) {
  const std::string text = "y = x * 2;\n";
  EXPECT_EQ(body(weave(text, {patch(1, Kind::expression, "x * 2", "x"), patch(2, Kind::expression, "x * 2", std::nullopt)})),
            "y = (MMAEMU_MUTANT(1) ? (x) : MMAEMU_MUTANT(2) ? (x * 2) : (x * 2));\n");
  EXPECT_EQ(body(weave(text, {patch(1, Kind::statement, "y = x * 2;", "y = 0;"), patch(9, Kind::statement, "y = x * 2;", std::nullopt)})),
            "if (MMAEMU_MUTANT(1)) {\ny = 0;\n} else if (MMAEMU_MUTANT(9)) {\ny = x * 2;\n} else {\ny = x * 2;\n}\n");
  // An identity control of kind `before` inserts nothing: the anchor must not run twice.
  EXPECT_EQ(body(weave(text, {patch(9, Kind::before, "y = x * 2;", std::nullopt)})), "if (MMAEMU_MUTANT(9)) {\n\n}\ny = x * 2;\n");
  // Disjoint anchors, woven at once: neither disturbs the other.
  EXPECT_EQ(body(weave("a = 1; b = 2;", {patch(1, Kind::expression, "1", "3"), patch(2, Kind::expression, "2", "4")})),
            "a = (MMAEMU_MUTANT(1) ? (3) : (1)); b = (MMAEMU_MUTANT(2) ? (4) : (2));");
}

TEST(Weave, HeadersKeepTheirGuardFirst) {
  const std::string woven = weave("#pragma once\nint g = 1;\n", {patch(1, Kind::expression, "1", "2")});
  EXPECT_NE(woven.find("#pragma once\n#include \"mutants/switch.hpp\"\n"), std::string::npos) << woven;
}

TEST(Weave, AnEntryThatNoLongerFitsItsFileIsNamed) {
  const std::string text = "a = x + 1;\nb = x + 1;\nc = y;\n";
  const std::string missing = error_of(text, {patch(7, Kind::expression, "z + 1", "z")});
  EXPECT_NE(missing.find("catalogue.yaml:70: mutant 7 (m7): its anchor is not in f.cpp"), std::string::npos) << missing;
  const std::string twice = error_of(text, {patch(7, Kind::expression, "x + 1", "x")});
  EXPECT_NE(twice.find("mutant 7 (m7): its anchor occurs 2 times in f.cpp (lines 1, 2)"), std::string::npos) << twice;
  const std::string overlap = error_of(text, {patch(1, Kind::expression, "a = x", "a"), patch(2, Kind::expression, "x + 1;\nb", "b")});
  EXPECT_NE(overlap.find("overlaps that of mutant 1"), std::string::npos) << overlap;
  const std::string kinds = error_of(text, {patch(1, Kind::expression, "c = y;", "c"), patch(2, Kind::statement, "c = y;", "c = 0;")});
  EXPECT_NE(kinds.find("mutant 2 (m2): shares its anchor with mutant 1 but not its kind"), std::string::npos) << kinds;
}

std::string write_catalogue(const std::string& text) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / ("overlay_test_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << text;
  return p.string();
}

TEST(ReadPatches, AnEntryWithoutAUsablePatchIsNamedByItsLine) {
  const std::string none = write_catalogue("mutants:\n  - {id: 1, name: a, target: \"f.cpp:g\", tier: cpu}\n");
  EXPECT_THROW(
      {
        try {
          read_patches(none);
        } catch (const PatchError& e) {
          EXPECT_NE(std::string(e.what()).find(":2: mutant 1 (a): no `patch:`"), std::string::npos) << e.what();
          throw;
        }
      },
      PatchError);
  const std::string bad_key = write_catalogue(
      "mutants:\n  - id: 1\n    name: a\n    target: \"f.cpp:g\"\n    tier: cpu\n    patch: {fnd: x}\n");
  try {
    read_patches(bad_key);
    ADD_FAILURE() << "an unknown patch key was accepted";
  } catch (const PatchError& e) {
    EXPECT_NE(std::string(e.what()).find(":6: unknown patch key 'fnd'"), std::string::npos) << e.what();
  }
  const std::string good = write_catalogue(
      "mutants:\n  - id: 4\n    name: a\n    target: \"kernels/x.cu:k\"\n    tier: gpu\n    patch:\n      kind: before\n      find: \"y;\"\n");
  const std::vector<Patch> ps = read_patches(good);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].file, "kernels/x.cu");
  EXPECT_EQ(ps[0].kind, Kind::before);
  EXPECT_FALSE(ps[0].replace.has_value());
  std::remove(good.c_str());
}

// The shipped catalogue against the shipped sources: every entry weaves (what the build does too,
// repeated here so that `ctest -L T4` says it), and every patched file names its mutants' target.
TEST(ShippedCatalogue, EveryEntryFitsItsCode) {
  const std::filesystem::path root = MMAEMU_SOURCE_DIR;
  const std::vector<Patch> patches = read_patches((root / "mutants/catalogue.yaml").string());
  EXPECT_GT(patches.size(), 90u);
  for (const auto& [file, ps] : by_file(patches)) {
    std::ifstream in(root / file);
    ASSERT_TRUE(in) << file;
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_NO_THROW(weave(s.str(), ps)) << file;
    // The production file holds no switch of its own: the overlay is the only place mutants live.
    EXPECT_EQ(s.str().find("MMAEMU_MUTANT"), std::string::npos) << file << " still holds a mutant switch";
  }
}

}  // namespace
}  // namespace mmaemu::overlay
