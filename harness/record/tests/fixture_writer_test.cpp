#include "harness/record/fixture_writer.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "harness/core/npy.hpp"
#include "harness/core/sha256.hpp"

namespace mmaemu::record {
namespace {

namespace fs = std::filesystem;

FixtureSet small_set() {
  FixtureSet set;
  set.name = "test-gpu";
  set.arch = "sm90";
  set.provenance.set("date_utc", "2026-01-01T00:00:00Z");
  set.provenance.set("command", "mmaemu record --out x \"quoted\"");
  set.provenance.set("gpu", "NVIDIA H200");
  for (const char* name : {"mma.m16n8k16.f16.f16.f16.f16", "wgmma.m64n8k32.f32.e5m2.e5m2"}) {
    InstructionRecording r = plan_recording(*ref::parse_instruction(name), 5, 1);
    r.d.assign(r.outputs(), 0x7Fu);
    set.recordings.push_back(std::move(r));
    set.summaries.push_back("zero 0");
  }
  set.log_text = "line one\n";
  return set;
}

TEST(FixtureWriter, WritesManifestNpyAndChecksums) {
  const fs::path dir = fs::temp_directory_path() / ("mmaemu_fixture_writer_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const FixtureSet set = small_set();
  write_fixture_set(dir, set);

  const YAML::Node m = YAML::LoadFile((dir / "manifest.yaml").string());
  EXPECT_EQ(m["schema"].as<std::string>(), "mmaemu-fixtures/1");
  EXPECT_EQ(m["set"].as<std::string>(), "test-gpu");
  EXPECT_EQ(m["arch"].as<std::string>(), "sm90");
  EXPECT_EQ(m["recorded"]["command"].as<std::string>(), "mmaemu record --out x \"quoted\"");
  ASSERT_EQ(m["instructions"].size(), 2u);
  const YAML::Node i0 = m["instructions"][0];
  EXPECT_EQ(i0["instr"].as<std::string>(), "mma.m16n8k16.f16.f16.f16.f16");
  EXPECT_EQ(i0["tiles"].as<int>(), 9);
  ASSERT_EQ(i0["families"].size(), 9u);
  EXPECT_EQ(i0["families"][0]["name"].as<std::string>(), "realistic");
  EXPECT_EQ(i0["families"][8]["last"].as<int>(), 9);
  for (const char* w : {"a", "b", "c", "d"}) {
    const fs::path p = dir / i0["files"][w]["path"].as<std::string>();
    EXPECT_EQ(i0["files"][w]["sha256"].as<std::string>(), sha256_file(p)) << w;
  }
  const NpyArray a = read_npy(dir / "mma.m16n8k16.f16.f16.f16.f16" / "a.npy");
  EXPECT_EQ(a.word_bytes, 2);
  EXPECT_EQ(a.shape, (std::vector<size_t>{9, 16, 16}));
  EXPECT_EQ(a.values, set.recordings[0].a);
  const NpyArray b = read_npy(dir / "wgmma.m64n8k32.f32.e5m2.e5m2" / "b.npy");
  EXPECT_EQ(b.word_bytes, 1);
  EXPECT_EQ(b.shape, (std::vector<size_t>{9, 32, 8}));
  const NpyArray d = read_npy(dir / "wgmma.m64n8k32.f32.e5m2.e5m2" / "d.npy");
  EXPECT_EQ(d.word_bytes, 4);
  EXPECT_EQ(d.shape, (std::vector<size_t>{9, 64, 8}));

  std::stringstream readme;
  readme << std::ifstream(dir / "README.md").rdbuf();
  EXPECT_NE(readme.str().find("wgmma.m64n8k32.f32.e5m2.e5m2"), std::string::npos);
  EXPECT_NE(readme.str().find("carry_chain"), std::string::npos);
  std::stringstream log;
  log << std::ifstream(dir / "record.log").rdbuf();
  EXPECT_EQ(log.str(), "line one\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mmaemu::record
