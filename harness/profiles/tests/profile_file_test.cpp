// Profiles as files: every built-in profile written and read back to the same models, installed
// profiles change the arithmetic, schema errors at file:line:column, and `mmaemu --profile` through T2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "harness/core/errors.hpp"
#include "harness/profiles/profile_file.hpp"

namespace fs = std::filesystem;
using namespace mmaemu;

namespace {

fs::path scratch() {
  const fs::path d = fs::temp_directory_path() / ("mmaemu-profiles-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

profiles::ProfileFile builtin_as_file(ref::Arch arch) {
  profiles::ProfileFile p;
  p.name = "built-in " + std::string(ref::arch_name(arch));
  p.arch = arch;
  for (const auto& m : ref::builtin_instructions_of(arch))
    if (!ref::is_wide_n_variant(m.instr)) p.instructions.push_back(m);
  return p;
}

// The message of the InputError loading `text` throws ("" when it loads).
std::string load_error(const std::string& text) {
  const fs::path p = write("bad.yaml", text);
  try {
    profiles::load_profile_file(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* kHeader = "mmaemu-profile: 1\nprofile: t\narch: sm90\ninstructions:\n";

}  // namespace

TEST(ProfileFile, EveryBuiltinProfileRoundTrips) {
  for (ref::Arch arch : ref::all_archs()) {
    const auto original = builtin_as_file(arch);
    const fs::path p = write(std::string(ref::arch_name(arch)) + ".yaml", profiles::profile_yaml(original));
    const auto read = profiles::load_profile_file(p);
    ASSERT_EQ(read.instructions.size(), original.instructions.size()) << p;
    EXPECT_EQ(read.arch, arch);
    for (size_t i = 0; i < read.instructions.size(); ++i) {
      std::string diff;
      EXPECT_EQ(read.instructions[i].instr.name, original.instructions[i].instr.name);
      EXPECT_TRUE(profiles::same_model(read.instructions[i], original.instructions[i], &diff))
          << original.instructions[i].instr.name << " differs in " << diff;
    }
    // Installed, it gives the built-in catalogue back, wide-N variants included.
    profiles::install_profile_file(p);
    EXPECT_EQ(ref::profile_origin(arch), p.string());
    const auto& installed = ref::instructions_of(arch);
    const auto& builtin = ref::builtin_instructions_of(arch);
    EXPECT_EQ(installed.size(), builtin.size()) << ref::arch_name(arch);
    for (const auto& m : builtin) {
      const auto& got = ref::lookup(arch, m.instr.name);
      EXPECT_TRUE(profiles::same_model(got, m)) << m.instr.name;
      if (m.lowering) {
        EXPECT_EQ(got.lowering->via_model->instr.name, m.lowering->via);
      }
    }
    ref::restore_builtin_profile(arch);
    EXPECT_EQ(ref::profile_origin(arch), "");
  }
}

TEST(ProfileFile, AnInstalledProfileChangesTheArithmetic) {
  // One fraction bit fewer for Hopper's fp16 block: 2^30 - 2^30 + 2^5 keeps the small term at F = 25
  // and loses it at F = 24.
  const std::string name = "mma.m16n8k16.f32.f16.f16.f32";
  const auto original = ref::lookup(ref::Arch::sm90, name);
  std::vector<uint32_t> a(16, 0), b(16, 0);
  a[0] = 0x7800;  // 2^15 * 2^15
  b[0] = 0x7800;
  a[1] = 0xF800;  // -2^15 * 2^15
  b[1] = 0x7800;
  a[2] = 0x5000;  // 2^5 * 1: 25 bits below 2^30
  b[2] = 0x3C00;
  const uint32_t keep = ref::dot(original, a.data(), b.data(), 0);
  EXPECT_EQ(keep, 0x42000000u);  // 32.0
  profiles::ProfileFile p;
  p.name = "f24";
  p.arch = ref::Arch::sm90;
  p.keep_builtin = true;
  ref::InstructionModel m = original;
  m.block.frac_bits = 24;
  p.instructions.push_back(m);
  const fs::path f = write("f24.yaml", profiles::profile_yaml(p));
  profiles::install_profile_file(f);
  EXPECT_EQ(ref::dot(ref::lookup(ref::Arch::sm90, name), a.data(), b.data(), 0), 0u);
  // The instructions it does not name stay (keep-builtin: true).
  EXPECT_EQ(ref::instructions_of(ref::Arch::sm90).size(), ref::builtin_instructions_of(ref::Arch::sm90).size());
  EXPECT_EQ(ref::lookup(ref::Arch::sm90, "wgmma.m64n8k16.f32.f16.f16").block.frac_bits, 25);
  ref::restore_builtin_profile(ref::Arch::sm90);
  EXPECT_EQ(ref::dot(ref::lookup(ref::Arch::sm90, name), a.data(), b.data(), 0), 0x42000000u);
}

TEST(ProfileFile, WithoutKeepBuiltinOnlyTheNamedInstructionsExist) {
  const fs::path p = write("one.yaml", std::string(kHeader) +
                                           "  - instr: mma.m16n8k16.f32.bf16.bf16.f32\n"
                                           "    block: {k: 16, frac-bits: 25, result: fp32, rounding: toward-zero}\n");
  profiles::install_profile_file(p);
  EXPECT_EQ(ref::instructions_of(ref::Arch::sm90).size(), 1u);
  EXPECT_THROW(ref::lookup(ref::Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32"), ref::UnsupportedInstruction);
  ref::restore_builtin_profile(ref::Arch::sm90);
}

TEST(ProfileFile, ErrorsNameFileLineAndColumn) {
  const std::string entry = "  - instr: mma.m16n8k16.f32.bf16.bf16.f32\n";
  struct Bad {
    std::string text, where, says;
  };
  const std::vector<Bad> cases = {
      {std::string(kHeader) + entry + "    block: {k: 16, frac-bits: 25, result: fp32, rounding: sideways}\n", ":6:",
       "rounding is 'sideways'"},
      {std::string(kHeader) + entry + "    block: {k: 0, frac-bits: 25, result: fp32, rounding: toward-zero}\n", ":6:",
       "k is 0"},
      {std::string(kHeader) + entry + "    block: {k: 16, frac-bits: 99, result: fp32, rounding: toward-zero}\n", ":6:",
       "frac-bits is 99"},
      {std::string(kHeader) + entry + "    block: {k: 16, frac-bits: 25, result: fp32, rounding: toward-zero, colour: red}\n",
       ":6:", "colour"},
      {std::string(kHeader) + entry + "    block: {k: 16, frac-bits: 25, result: fp32, rounding: toward-zero, zero-product-exp: low}\n",
       ":6:", "zero-product-exp is 'low'"},
      {std::string(kHeader) + "  - instr: mma.m16n8.f32.bf16\n    fma-chain: true\n", ":5:", "mma.m16n8.f32.bf16"},
      {std::string(kHeader) + "  - instr: mma.m16n8k32.f32.e4m3.e4m3.f32\n    lowered: {via: mma.m16n8k16.f32.f16.f16.f32, parts: 2, run: 2}\n",
       ":5:", "lowered via mma.m16n8k16.f32.f16.f16.f32"},
      {std::string(kHeader) + entry + "    block: {k: 16, frac-bits: 25, result: fp32, rounding: toward-zero}\n" + entry +
           "    block: {k: 16, frac-bits: 25, result: fp32, rounding: toward-zero}\n",
       ":7:", "given twice"},
      {"mmaemu-profile: 1\nprofile: t\narch: sm91\ninstructions: []\n", ":3:", "unknown architecture"},
      {"mmaemu-profile: 2\nprofile: t\narch: sm90\ninstructions: []\n", ":1:", "version 1"},
      {std::string(kHeader) + entry, ":5:", "exactly one of"},
  };
  for (const auto& c : cases) {
    const std::string msg = load_error(c.text);
    EXPECT_NE(msg.find("bad.yaml" + c.where), std::string::npos) << msg << "\n--- for:\n" << c.text;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
  }
}

// `mmaemu --profile FILE run`: the H200 recordings replay under the built-in profile written as a file,
// and fail under one with a single parameter changed: the file is what the run computes with.
TEST(ProfileCli, T2RunsUnderAProfileFile) {
  const fs::path dir = scratch();
  const auto exact = write("sm90.yaml", profiles::profile_yaml(builtin_as_file(ref::Arch::sm90)));
  auto changed = builtin_as_file(ref::Arch::sm90);
  for (auto& m : changed.instructions)
    if (m.instr.name == "wgmma.m64n8k16.f32.bf16.bf16") m.block.frac_bits = 24;
  const auto wrong = write("sm90-f24.yaml", profiles::profile_yaml(changed));
  const auto status_of = [&](const std::string& before, const std::string& after) {
    const std::string cmd = before + std::string(MMAEMU_BIN) + after + " > " + (dir / "log").string() + " 2>&1";
    return WEXITSTATUS(std::system(cmd.c_str()));
  };
  const std::string t2 = " run " + std::string(MMAEMU_SOURCE_DIR) + "/tiers/T2.yaml --suite h200-fixtures --report-dir " +
                         dir.string();
  EXPECT_EQ(status_of("", " --profile " + exact.string() + t2), 0);
  EXPECT_EQ(status_of("", " --profile " + wrong.string() + t2), 1);
  EXPECT_EQ(status_of("", t2 + " --profile " + wrong.string()), 1);  // after the subcommand
  EXPECT_EQ(status_of("MMAEMU_PROFILE=" + wrong.string() + " ", t2), 1);
  // T3 under a profile no built-in one has (blocks of 4, F = 21, floor truncation, nearest-even): the
  // host kernels follow the file's parameters as the reference does.
  auto unusual = builtin_as_file(ref::Arch::sm90);
  unusual.keep_builtin = true;
  for (auto& m : unusual.instructions)
    if (m.instr.name == "mma.m16n8k16.f32.bf16.bf16.f32") {
      m.block.block_k = 4;
      m.block.frac_bits = 21;
      m.block.truncation = ref::Truncation::floor;
      m.block.rounding = ref::Rounding::nearest_even;
      m.block.zero_product_exp = -100;
    }
  const auto unusual_file = write("sm90-unusual.yaml", profiles::profile_yaml(unusual));
  EXPECT_EQ(status_of("MMAEMU_PROFILE=" + unusual_file.string() + " ",
                      " run " + std::string(MMAEMU_SOURCE_DIR) + "/tiers/T3.yaml --suite t3-host-quick --report-dir " + dir.string()),
            0);
  // A bad file is exit 2 naming it, line and column.
  const auto broken = write("broken.yaml", "mmaemu-profile: 1\nprofile: t\narch: sm90\ninstructions: 3\n");
  EXPECT_EQ(status_of("", " info --profile " + broken.string()), 2);
  std::ifstream in(dir / "log");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("broken.yaml:4:"), std::string::npos) << text;
}
