// Shipped data on the real files of this repository (which must pass as committed), and on a copy of
// them spoiled one way at a time: a byte flipped, a file missing, a new file nobody recorded.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/signoff/shipped_data.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::signoff {
namespace {
namespace fs = std::filesystem;
using mmaemu::testing::TempDir;

const fs::path kRepo = MMAEMU_SIGNOFF_REPO_ROOT;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The plan's view: the H200 fixture manifest named directly, and the release manifest.
ShippedDataSpec spec_at(const fs::path& root) {
  return {{root / "fixtures/h200/manifest.yaml", root / "release/shipped-data.yaml"}, root};
}

std::vector<const CheckRow*> failed(const ShippedDataResult& r) {
  std::vector<const CheckRow*> out;
  for (const CheckRow& c : r.files)
    if (c.status != Status::pass) out.push_back(&c);
  return out;
}

size_t rows_named(const ShippedDataResult& r, const std::string& path) {
  return static_cast<size_t>(std::count_if(r.files.begin(), r.files.end(), [&](const CheckRow& c) { return c.name == path; }));
}

TEST(ShippedData, TheRepositoryAsCommittedPasses) {
  const ShippedDataResult r = check_shipped_data(spec_at(kRepo));
  EXPECT_TRUE(r.passed()) << render_table(r);
  // Every kind of shipped file is there, each checked once although two routes reach the fixture set.
  for (const char* path : {"tiers/T2.yaml", "mutants/catalogue.yaml", "mutants/baseline-cpu.json",
                           "fixtures/h200/manifest.yaml", "fixtures/cublaslt-h200/plan.yaml",
                           "fixtures/cublaslt-h200/recorded/recording.json",
                           "fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/d.npy",
                           "fixtures/cublaslt-h200/recorded/d/0-0.npy", "fixtures/cublaslt-h200/rules/d/0-0.npy"})
    EXPECT_EQ(rows_named(r, path), 1u) << path;
  EXPECT_GT(r.files.size(), 1400u);
  // The external archive is not shipped.
  for (const CheckRow& c : r.files) EXPECT_EQ(c.name.find("external"), std::string::npos) << c.name;
}

// A copy of the shipped files of this repository, to spoil.
class ShippedCopy : public ::testing::Test {
 protected:
  void SetUp() override { copy_repository(); }
  void copy_repository() {
    for (const auto& e : fs::directory_iterator(root_)) fs::remove_all(e.path());
    for (const char* dir : {"release", "tiers", "fixtures"})
      fs::copy(kRepo / dir, root_ / dir, fs::copy_options::recursive);
    fs::create_directories(root_ / "mutants");
    for (const auto& e : fs::directory_iterator(kRepo / "mutants"))
      if (e.path().extension() == ".yaml" || e.path().extension() == ".json") fs::copy(e.path(), root_ / "mutants");
  }
  ShippedDataResult check() { return check_shipped_data(spec_at(root_)); }
  void flip_a_byte(const std::string& path) {
    std::string bytes = read_text(root_ / path);
    bytes[bytes.size() / 2] ^= 0x01;
    write_file_atomic(root_ / path, bytes);
  }
  TempDir dir_;
  fs::path root_ = dir_.path();
};

TEST_F(ShippedCopy, AnUntouchedCopyPasses) { EXPECT_TRUE(check().passed()) << render_table(check()); }

TEST_F(ShippedCopy, AFlippedByteFailsNamingTheFile) {
  for (const std::string path : {"fixtures/h200/wgmma.m64n8k32.f32.e4m3.e4m3/d.npy", "tiers/T3.yaml",
                                 "fixtures/cublaslt-h200/rules/d/3-1.npy", "mutants/baseline-gpu.json"}) {
    copy_repository();  // a fresh copy for each
    flip_a_byte(path);
    const ShippedDataResult r = check();
    const auto bad = failed(r);
    ASSERT_EQ(bad.size(), 1u) << path << "\n" << render_table(r);
    EXPECT_EQ(bad[0]->name, path);
    EXPECT_EQ(bad[0]->reason, "sha256 differs: the file changed since its manifest was written");
    EXPECT_EQ(bad[0]->seen, sha256_file(root_ / path));
    EXPECT_NE(render_table(r).find(path), std::string::npos);
  }
}

TEST_F(ShippedCopy, TheManifestOfAFlippedFixtureFileIsNamedWithItsLine) {
  flip_a_byte("fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/a.npy");
  const ShippedDataResult r = check();
  const auto bad = failed(r);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]->source.rfind("fixtures/h200/manifest.yaml:", 0), 0u) << bad[0]->source;
  flip_a_byte("fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/a.npy");  // back
  flip_a_byte("fixtures/cublaslt-h200/recorded/d/0-1.npy");
  const ShippedDataResult r2 = check();
  const auto lt = failed(r2);
  ASSERT_EQ(lt.size(), 1u);
  EXPECT_EQ(lt[0]->source, "fixtures/cublaslt-h200/recorded/recording.json (call 0, rank 1)");
}

TEST_F(ShippedCopy, AMissingFileIsAFailNotAnException) {
  fs::remove(root_ / "mutants/baseline-cpu.json");
  fs::remove(root_ / "fixtures/h200/wgmma.m64n8k8.f32.tf32.tf32/c.npy");
  fs::remove(root_ / "fixtures/cublaslt-h200/recorded/d/5-0.npy");
  const ShippedDataResult r = check();
  const auto bad = failed(r);
  ASSERT_EQ(bad.size(), 3u) << render_table(r);
  for (const CheckRow* c : bad) {
    EXPECT_EQ(c->seen, "missing") << c->name;
    EXPECT_EQ(c->reason, "the file is missing");
  }
  EXPECT_EQ(bad[0]->name, "fixtures/h200/wgmma.m64n8k8.f32.tf32.tf32/c.npy");
}

TEST_F(ShippedCopy, ANewTierFileNobodyRecordedFailsUntilTheUpdate) {
  write_file_atomic(root_ / "tiers/T9.yaml", "tier: T9\n");
  ShippedDataResult r = check();
  auto bad = failed(r);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]->name, "tiers/T9.yaml");
  EXPECT_EQ(bad[0]->expected, "(not recorded)");
  EXPECT_EQ(bad[0]->source, "release/shipped-data.yaml");
  // The on-purpose update records it, and keeps the manifest's globs and its header comment.
  const std::string before = read_text(root_ / "release/shipped-data.yaml");
  const ShippedDataManifest m = update_shipped_data_manifest(root_ / "release/shipped-data.yaml");
  EXPECT_TRUE(check().passed());
  const std::string after = read_text(root_ / "release/shipped-data.yaml");
  EXPECT_EQ(after.substr(0, after.find("schema:")), before.substr(0, before.find("schema:")));
  EXPECT_NE(after.find("tiers/T9.yaml"), std::string::npos);
  EXPECT_EQ(m.include, read_shipped_data_manifest(kRepo / "release/shipped-data.yaml").include);
  // A recorded file that no pattern matches any more fails too.
  write_file_atomic(root_ / "release/shipped-data.yaml",
                    after + "  - {path: \"docs/x.md\", sha256: \"" + std::string(64, 'a') + "\"}\n");
  write_file_atomic(root_ / "docs/x.md", "x");
  r = check();
  bad = failed(r);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]->name, "docs/x.md");
}

TEST_F(ShippedCopy, TheCommittedManifestIsWhatTheUpdateWrites) {
  update_shipped_data_manifest(root_ / "release/shipped-data.yaml");
  EXPECT_EQ(read_text(root_ / "release/shipped-data.yaml"), read_text(kRepo / "release/shipped-data.yaml"));
}

TEST_F(ShippedCopy, AStrayDataFileInAFixtureSetFails) {
  fs::copy(root_ / "fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/a.npy", root_ / "fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/e.npy");
  const ShippedDataResult r = check();
  const auto bad = failed(r);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]->name, "fixtures/h200/mma.m16n8k16.f32.f16.f16.f32/e.npy");
  EXPECT_EQ(bad[0]->reason, "a data file of the set that its manifest does not name");
}

TEST(ShippedGlobs, SegmentsStarsAndDoubleStars) {
  TempDir dir;
  for (const char* f : {"a/x.yaml", "a/y.yml", "a/.hidden.yaml", "a/b/z.yaml", "a/b/c/w.yaml", "top.yaml"})
    write_file_atomic(dir / f, "x");
  EXPECT_EQ(expand_globs(dir.path(), {"a/*.yaml"}), (std::vector<std::string>{"a/x.yaml"}));
  EXPECT_EQ(expand_globs(dir.path(), {"a/*.y?ml", "a/*.yml"}), (std::vector<std::string>{"a/x.yaml", "a/y.yml"}));
  EXPECT_EQ(expand_globs(dir.path(), {"a/**/*.yaml"}),
            (std::vector<std::string>{"a/b/c/w.yaml", "a/b/z.yaml", "a/x.yaml"}));
  EXPECT_EQ(expand_globs(dir.path(), {"*/b/z.yaml", "top.yaml"}), (std::vector<std::string>{"a/b/z.yaml", "top.yaml"}));
  EXPECT_TRUE(expand_globs(dir.path(), {"nothing/*"}).empty());
}

TEST(ShippedManifest, APatternThatMatchesNothingFails) {
  TempDir dir;
  write_file_atomic(dir / "tiers/T2.yaml", "tier: T2\n");
  write_shipped_data_manifest(dir / "release/shipped-data.yaml", "..", {"tiers/*.yaml", "mutants/baseline-*.json"}, {},
                              "# test\n");
  const ShippedDataResult r = check_shipped_data({{dir / "release/shipped-data.yaml"}, {}});
  const auto bad = failed(r);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]->name, "mutants/baseline-*.json");
  EXPECT_EQ(rows_named(r, "tiers/T2.yaml"), 1u);  // shown relative to the manifest's root
  const nlohmann::ordered_json j = to_json(r);
  EXPECT_EQ(j["schema"], "mmaemu-shipped-data-check/1");
  EXPECT_EQ(j["passed"], false);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j["files"][0].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"path", "expected", "got", "status", "manifest", "reason"}));
}

TEST(ShippedManifest, MalformedManifestsAndPlansAreInputErrors) {
  TempDir dir;
  const auto error_of = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  write_file_atomic(dir / "m.yaml", "schema: mmaemu-shipped-data/1\nroot: .\ninclude: []\nfiles:\n  - {path: a, sha256: ABC}\n");
  EXPECT_NE(error_of([&] { read_shipped_data_manifest(dir / "m.yaml"); }).find("m.yaml:5:23: sha256 must be 64 lower-case hex digits"),
            std::string::npos);
  write_file_atomic(dir / "n.yaml", "schema: mmaemu-shipped-data/1\nroot: .\ninclude: []\nfile: []\n");
  EXPECT_NE(error_of([&] { read_shipped_data_manifest(dir / "n.yaml"); }).find("n.yaml:4:1: unknown key 'file'"), std::string::npos);
  write_file_atomic(dir / "o.yaml", "schema: something-else/1\n");
  EXPECT_NE(error_of([&] { check_shipped_data({{dir / "o.yaml"}, {}}); }).find("o.yaml:1:9: not a manifest of shipped data"),
            std::string::npos);
  write_file_atomic(dir / "plan.yaml", "data:\n  manifests: [m.yaml, gone.yaml]\n");
  const YAML::Node plan = YAML::LoadFile((dir / "plan.yaml").string());
  EXPECT_NE(error_of([&] { shipped_data_spec_from_yaml(plan["data"], dir / "plan.yaml"); }).find("plan.yaml:2:23: manifest not found"),
            std::string::npos);
  write_file_atomic(dir / "plan2.yaml", "data:\n  manifest: [m.yaml]\n");
  const YAML::Node plan2 = YAML::LoadFile((dir / "plan2.yaml").string());
  EXPECT_NE(error_of([&] { shipped_data_spec_from_yaml(plan2["data"], dir / "plan2.yaml"); }).find("plan2.yaml:2:3: unknown key 'manifest'"),
            std::string::npos);
}

TEST(ShippedManifest, ThePlanSectionOfTheRelease) {
  const fs::path plan = kRepo / "release/plan-example.yaml";
  const YAML::Node section = YAML::Load("manifests: [../fixtures/h200/manifest.yaml, shipped-data.yaml]");
  const ShippedDataSpec s = shipped_data_spec_from_yaml(section, plan);
  ASSERT_EQ(s.manifests.size(), 2u);
  EXPECT_EQ(s.manifests[0], (kRepo / "fixtures/h200/manifest.yaml").lexically_normal());
  EXPECT_EQ(s.manifests[1], (kRepo / "release/shipped-data.yaml").lexically_normal());
}

}  // namespace
}  // namespace mmaemu::signoff
