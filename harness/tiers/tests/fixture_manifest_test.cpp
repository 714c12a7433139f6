#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "harness/tiers/fixture_manifest.hpp"
#include "harness/core/sha256.hpp"
#include "harness/tiers/tests/test_files.hpp"

namespace mmaemu {
namespace {

using testing::input_error_of;
using testing::TempDir;
using testing::write_fixture_set;

const char* kInstr = "mma.m16n8k16.f32.f16.f16.f32";

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

// Line (1-based) of the first line holding `needle`.
int line_of(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

TEST(FixtureManifest, LoadsAValidSet) {
  TempDir dir;
  const auto manifest = write_fixture_set(dir.path(), {kInstr, "wgmma.m64n8k32.f32.e4m3.e5m2"},
                                          {{"realistic", 2}, {"random_bits", 3}});
  const FixtureManifest m = load_fixture_manifest(manifest);
  EXPECT_EQ(m.set, "synthetic");
  EXPECT_EQ(m.arch, ref::Arch::sm90);
  EXPECT_EQ(m.recorded.at("date_utc"), "2026-11-30T22:40:00Z");
  ASSERT_EQ(m.instructions.size(), 2u);
  const FixtureInstruction& in = m.instructions[0];
  EXPECT_EQ(in.tiles, 5u);
  ASSERT_EQ(in.families.size(), 2u);
  EXPECT_EQ(in.families[1].first, 2u);
  EXPECT_EQ(in.families[1].last, 5u);
  const FixtureArrays arrays = load_fixture_arrays(m.instructions[1]);
  EXPECT_EQ(arrays.tiles, 5u);
  EXPECT_EQ(arrays.a.word_bytes, 1);
}

TEST(FixtureManifest, Sha256MismatchNamesTheNpyAndTheManifest) {
  TempDir dir;
  testing::Spoilers spoil;
  spoil.after_hashing = [](const std::filesystem::path& sub) {
    NpyArray c = read_npy(sub / "c.npy");
    c.values[0] ^= 1;
    write_npy(sub / "c.npy", c);
  };
  const auto manifest = write_fixture_set(dir.path(), {kInstr}, {{"realistic", 2}}, spoil);
  const FixtureManifest m = load_fixture_manifest(manifest);
  const auto e = input_error_of([&] { load_fixture_arrays(m.instructions[0]); });
  EXPECT_EQ(e.where(), (dir.path() / kInstr / "c.npy").string());
  const std::string text = read_text(manifest);
  const std::string sha_at = manifest.string() + ":" + std::to_string(line_of(text, "c: {path:"));
  EXPECT_NE(std::string(e.what()).find(sha_at), std::string::npos) << e.what();
}

TEST(FixtureManifest, TruncatedNpyIsAnInputError) {
  TempDir dir;
  // The manifest is made to agree with the truncated file: the .npy reader must still refuse it.
  const auto manifest = write_fixture_set(dir.path(), {kInstr}, {{"realistic", 2}});
  const auto b_path = dir.path() / kInstr / "b.npy";
  std::string bytes = read_text(b_path);
  bytes.resize(bytes.size() - 5);
  write_file_atomic(b_path, bytes);
  std::string text = read_text(manifest);
  const size_t at = text.find("b.npy, sha256: \"") + std::string("b.npy, sha256: \"").size();
  text.replace(at, 64, sha256_hex(bytes));
  write_file_atomic(manifest, text);
  const FixtureManifest m = load_fixture_manifest(manifest);
  const auto e = input_error_of([&] { load_fixture_arrays(m.instructions[0]); });
  EXPECT_EQ(e.where(), b_path.string());
  EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
}

TEST(FixtureManifest, AShapeThatDoesNotFit) {
  TempDir dir;
  testing::Spoilers spoil;
  // A written as [T, K, M]: the common transposition mistake.
  spoil.arrays = [](NpyArray& a, NpyArray&, NpyArray&, NpyArray&) { a.shape = {a.shape[0], a.shape[2], a.shape[1]}; };
  const auto manifest = write_fixture_set(dir.path(), {"mma.m16n8k8.f32.f16.f16.f32"}, {{"realistic", 2}}, spoil);
  const FixtureManifest m = load_fixture_manifest(manifest);
  const auto e = input_error_of([&] { load_fixture_arrays(m.instructions[0]); });
  EXPECT_EQ(e.where(), (dir.path() / "mma.m16n8k8.f32.f16.f16.f32" / "a.npy").string());
  EXPECT_NE(std::string(e.what()).find("(2, 8, 16)"), std::string::npos) << e.what();
}

TEST(FixtureManifest, ADtypeThatDoesNotFit) {
  TempDir dir;
  testing::Spoilers spoil;
  spoil.arrays = [](NpyArray&, NpyArray&, NpyArray&, NpyArray& d) { d.word_bytes = 2; };  // fp32 D stored as uint16
  const auto manifest = write_fixture_set(dir.path(), {kInstr}, {{"realistic", 1}}, spoil);
  const FixtureManifest m = load_fixture_manifest(manifest);
  const auto e = input_error_of([&] { load_fixture_arrays(m.instructions[0]); });
  EXPECT_EQ(e.where(), (dir.path() / kInstr / "d.npy").string());
  EXPECT_NE(std::string(e.what()).find("uint32"), std::string::npos) << e.what();
}

class ManifestSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    manifest = write_fixture_set(dir.path(), {kInstr}, {{"realistic", 2}, {"specials", 2}});
    text = read_text(manifest);
  }
  InputError error_after(const std::string& from, const std::string& to) {
    write_file_atomic(manifest, replace(text, from, to));
    return input_error_of([&] { load_fixture_manifest(manifest); });
  }
  std::string at(const std::string& needle, int column) {
    return manifest.string() + ":" + std::to_string(line_of(text, needle)) + ":" + std::to_string(column);
  }
  TempDir dir;
  std::filesystem::path manifest;
  std::string text;
};

TEST_F(ManifestSchema, MisspelledKey) {
  EXPECT_EQ(error_after("    tiles: 4", "    tile: 4").where(), at("    tiles: 4", 5));
}

TEST_F(ManifestSchema, WrongType) {
  EXPECT_EQ(error_after("    tiles: 4", "    tiles: four").where(), at("    tiles: 4", 12));
}

TEST_F(ManifestSchema, UnknownSchemaVersion) {
  EXPECT_EQ(error_after("mmaemu-fixtures/1", "mmaemu-fixtures/9").where(), at("schema:", 9));
}

TEST_F(ManifestSchema, InstructionTheArchitectureLacks) {
  const auto e = error_after("arch: sm90", "arch: sm75");
  EXPECT_EQ(e.where(), at("  - instr:", 12));
}

TEST_F(ManifestSchema, FamiliesMustCoverTheTilesInOrder) {
  const auto e = error_after("first: 2, last: 4", "first: 3, last: 4");
  EXPECT_NE(std::string(e.what()).find("should start at 2"), std::string::npos) << e.what();
  const auto e2 = error_after("first: 2, last: 4", "first: 2, last: 3");
  EXPECT_NE(std::string(e2.what()).find("cover tiles [0, 3) of 4"), std::string::npos) << e2.what();
}

TEST_F(ManifestSchema, MissingFile) {
  std::filesystem::remove(dir.path() / kInstr / "d.npy");
  const auto e = input_error_of([&] { load_fixture_manifest(manifest); });
  EXPECT_EQ(e.where().rfind(manifest.string() + ":" + std::to_string(line_of(text, "d: {path:")) + ":", 0), 0u)
      << e.where();
}

}  // namespace
}  // namespace mmaemu
