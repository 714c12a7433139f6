// The command-line contract, exercised through the real binary: exit statuses 0/1/2, error messages
// that name the file (and line), and `mmaemu mma` reproducing recorded hardware bits.
#include <gtest/gtest.h>

#include "harness/cublaslt/lt_plan.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_recording.hpp"
#include "mmaemu/reference/library_gemm.hpp"
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "harness/core/npy.hpp"
#include "harness/core/operands.hpp"

namespace fs = std::filesystem;
using mmaemu::NpyArray;

namespace {

struct Outcome {
  int status;
  std::string output;  // stdout and stderr together
};

// `env`: assignments put before the program ("NAME=value ..."), for the variables a test sets.
Outcome run(const std::string& args, const std::string& env = "") {
  const std::string cmd = (env.empty() ? "" : env + " ") + std::string(MMAEMU_BIN) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("mmaemu-cli-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

NpyArray array(int word_bytes, std::vector<size_t> shape, uint32_t fill) {
  NpyArray a;
  a.word_bytes = word_bytes;
  a.shape = std::move(shape);
  a.values.assign(a.size(), fill);
  return a;
}

// One m16n8k16 f16 tile of small integers: A = 2, B = 3 everywhere, C = 1 -> D = 16*6 + 1 = 97.
void write_small_int_tile(const TempDir& d) {
  mmaemu::write_npy(d.file("a.npy"), array(2, {1, 16, 16}, 0x4000));
  mmaemu::write_npy(d.file("b.npy"), array(2, {1, 16, 8}, 0x4200));
  mmaemu::write_npy(d.file("c.npy"), array(4, {1, 16, 8}, 0x3F800000));
}

const std::string kInstr = "mma.m16n8k16.f32.f16.f16.f32";

std::string mma_args(const TempDir& d, const std::string& arch = "sm90", const std::string& instr = kInstr) {
  return "mma --arch " + arch + " --instr " + instr + " --a " + d.file("a.npy") + " --b " + d.file("b.npy") +
         " --c " + d.file("c.npy") + " --out " + d.file("d.npy");
}

}  // namespace

TEST(MmaCli, ComputesSmallIntegerTileExactly) {
  TempDir d;
  write_small_int_tile(d);
  const Outcome o = run(mma_args(d));
  ASSERT_EQ(o.status, 0) << o.output;
  const NpyArray out = mmaemu::read_npy(d.file("d.npy"));
  EXPECT_EQ(out.word_bytes, 4);
  EXPECT_EQ(out.shape, (std::vector<size_t>{1, 16, 8}));
  for (uint32_t v : out.values) ASSERT_EQ(v, 0x42C20000u);  // 97.0f
}

TEST(MmaCli, RejectsInstructionTheArchitectureLacks) {
  TempDir d;
  write_small_int_tile(d);
  const Outcome o = run(mma_args(d, "sm80", "wgmma.m64n8k16.f32.f16.f16"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("sm80"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("wgmma.m64n8k16.f32.f16.f16"), std::string::npos) << o.output;
}

TEST(MmaCli, RejectsTruncatedNpyNamingTheFile) {
  TempDir d;
  write_small_int_tile(d);
  fs::resize_file(d.file("a.npy"), fs::file_size(d.file("a.npy")) - 7);
  const Outcome o = run(mma_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("a.npy")), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("truncated"), std::string::npos) << o.output;
}

// A directory where a file belongs opened "fine" and then threw std::ios_base::failure out of the
// reader (abort, exit 134); it is unusable input like any other, exit 2 naming it.
TEST(MmaCli, RejectsADirectoryGivenAsAnOperandNamingIt) {
  TempDir d;
  write_small_int_tile(d);
  fs::create_directories(d.file("dir.npy"));
  const Outcome o = run("mma --arch sm90 --instr " + kInstr + " --a " + d.file("dir.npy") + " --b " + d.file("b.npy") +
                        " --c " + d.file("c.npy") + " --out " + d.file("d.npy"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("dir.npy") + ": "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("directory"), std::string::npos) << o.output;
}

TEST(RunCli, RejectsADirectoryGivenAsATierFileNamingIt) {
  TempDir d;
  fs::create_directories(d.file("T9.yaml"));
  const Outcome o = run("run " + d.file("T9.yaml"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("T9.yaml") + ": "), std::string::npos) << o.output;
}

// Every reader of a file named on the command line, given a directory: exit 2 naming it, never an
// uncaught stream exception (exit 134).
TEST(Cli, ADirectoryWhereAFileBelongsIsExit2NamingIt) {
  TempDir d;
  fs::create_directories(d.file("dir.json"));
  const std::string src = MMAEMU_SOURCE_DIR;
  for (const std::string& args :
       {"bench " + src + "/tiers/T6.yaml --quick --section reference --baseline " + d.file("dir.json") +
            " --report-dir " + d.file("r1"),
        "mutate " + src + "/tiers/T4-cpu.yaml --baseline " + d.file("dir.json") + " --report-dir " + d.file("r2")}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(d.file("dir.json") + ": "), std::string::npos) << args << "\n" << o.output;
  }
}

// A mutation tier run through `mmaemu run` writes its kill matrix as <tier>.json; the run's own
// reports then take <tier>.run.json beside it, and a --report-stem of the tier's name is refused.
TEST(RunCli, AMutationTiersKillMatrixAndTheRunReportDoNotShareAName) {
  TempDir d;
  std::ofstream(d.file("catalogue.yaml")) << "parts: {t: the test code}\nmutants:\n"
                                             "  - {id: 1, name: m1, target: \"t.cpp:f\", fault: \"exit 1\", expect: killed, tier: cpu, part: t}\n";
  std::ofstream(d.file("T4.yaml")) << "tier: T4-x\ncatalogue: catalogue.yaml\ncatalogue_tiers: [cpu]\nprogram: /bin/sh\n"
                                      "jobs: 1\ntests:\n  - name: a\n"
                                      "    command: [sh, -c, 'test -z \"$MMAEMU_MUTANT\"']\n";
  const Outcome o = run("run " + d.file("T4.yaml") + " --quiet --report-dir " + d.file("reports"));
  ASSERT_EQ(o.status, 0) << o.output;
  std::ifstream matrix(d.file("reports/T4-x.json"));
  const std::string text{std::istreambuf_iterator<char>(matrix), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("\"mutants\""), std::string::npos) << "the kill matrix was overwritten:\n" << text;
  EXPECT_TRUE(fs::exists(d.file("reports/T4-x.run.json")));
  const Outcome same = run("run " + d.file("T4.yaml") + " --quiet --report-stem T4-x --report-dir " + d.file("reports"));
  EXPECT_EQ(same.status, 2) << same.output;
  EXPECT_NE(same.output.find("--report-stem"), std::string::npos) << same.output;
}

TEST(MmaCli, RejectsAShapeThatDoesNotFitTheInstruction) {
  TempDir d;
  write_small_int_tile(d);
  mmaemu::write_npy(d.file("a.npy"), array(2, {1, 16, 8}, 0x4000));  // K = 8, the instruction has 16
  const Outcome o = run(mma_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("a.npy")), std::string::npos) << o.output;
}

TEST(MmaCli, RejectsADtypeThatDoesNotFitTheFormat) {
  TempDir d;
  write_small_int_tile(d);
  mmaemu::write_npy(d.file("b.npy"), array(4, {1, 16, 8}, 0x40400000));  // uint32 for f16 operands
  const Outcome o = run(mma_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("b.npy")), std::string::npos) << o.output;
}

// Blackwell's kind::f8f6f4 on sm120: fp4 (e2m1) times fp6 (e3m2), one element per byte in its low
// bits. A = 3.0 (e2m1 0x5), B = 1.5 (e3m2 0x0E), C = 1: D = 32 * 4.5 + 1 = 145, exact in one block.
TEST(MmaCli, ComputesAnFp4TimesFp6TileExactly) {
  TempDir d;
  mmaemu::write_npy(d.file("a.npy"), array(1, {1, 16, 32}, 0x05));
  mmaemu::write_npy(d.file("b.npy"), array(1, {1, 32, 8}, 0x0E));
  mmaemu::write_npy(d.file("c.npy"), array(4, {1, 16, 8}, 0x3F800000));
  const Outcome o = run(mma_args(d, "sm120", "mma.m16n8k32.f32.e2m1.e3m2.f32"));
  ASSERT_EQ(o.status, 0) << o.output;
  const NpyArray out = mmaemu::read_npy(d.file("d.npy"));
  ASSERT_EQ(out.values.size(), 128u);
  for (uint32_t v : out.values) ASSERT_EQ(v, 0x43110000u);  // 145.0f
}

// An fp4 byte with a bit above its low four is not an fp4 value: exit 2 naming the file and element.
TEST(MmaCli, RejectsAnFp4ByteWithHighBitsSetNamingTheFile) {
  TempDir d;
  NpyArray a = array(1, {1, 16, 32}, 0x05);
  a.values[37] = 0x15;
  mmaemu::write_npy(d.file("a.npy"), a);
  mmaemu::write_npy(d.file("b.npy"), array(1, {1, 32, 8}, 0x0E));
  mmaemu::write_npy(d.file("c.npy"), array(4, {1, 16, 8}, 0x3F800000));
  const Outcome o = run(mma_args(d, "sm120", "mma.m16n8k32.f32.e2m1.e3m2.f32"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("a.npy")), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("element 37"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("low 4 bits"), std::string::npos) << o.output;
}

// Block-scaled MXFP8 on sm120: A = B = 1.0 (e4m3), one ue8m0 scale per 32 k: A's rows scaled by 2^2,
// B's columns by 2^-1, C = 1: D = 32 * 2 + 1 = 65.
constexpr const char* kMxfp8 = "mma.m16n8k32.kind::mxf8f6f4.block_scale.block32.f32.e4m3.e4m3.f32.ue8m0";
void write_mxfp8_tile(const TempDir& d) {
  mmaemu::write_npy(d.file("a.npy"), array(1, {1, 16, 32}, 0x38));
  mmaemu::write_npy(d.file("b.npy"), array(1, {1, 32, 8}, 0x38));
  mmaemu::write_npy(d.file("c.npy"), array(4, {1, 16, 8}, 0x3F800000));
  mmaemu::write_npy(d.file("sa.npy"), array(1, {1, 16, 1}, 129));
  mmaemu::write_npy(d.file("sb.npy"), array(1, {1, 1, 8}, 126));
}
std::string scale_args(const TempDir& d) { return " --scale-a " + d.file("sa.npy") + " --scale-b " + d.file("sb.npy"); }

TEST(MmaCli, ComputesABlockScaledTileExactly) {
  TempDir d;
  write_mxfp8_tile(d);
  const Outcome o = run(mma_args(d, "sm120", kMxfp8) + scale_args(d));
  ASSERT_EQ(o.status, 0) << o.output;
  const NpyArray out = mmaemu::read_npy(d.file("d.npy"));
  ASSERT_EQ(out.values.size(), 128u);
  for (uint32_t v : out.values) ASSERT_EQ(v, 0x42820000u);  // 65.0f
}

// Scales missing, given to an instruction that takes none, of the wrong shape or with the unused bit of
// ue4m3 set: exit 2, naming the option or the file.
TEST(MmaCli, RejectsMissingMisshapenOrUnwantedScales) {
  TempDir d;
  write_mxfp8_tile(d);
  Outcome o = run(mma_args(d, "sm120", kMxfp8) + " --scale-a " + d.file("sa.npy"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--scale-b"), std::string::npos) << o.output;
  o = run(mma_args(d, "sm120", "mma.m16n8k32.f32.e4m3.e4m3.f32") + scale_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("takes no scales"), std::string::npos) << o.output;
  mmaemu::write_npy(d.file("sb.npy"), array(1, {1, 8, 1}, 126));  // [T, N, S] instead of [T, S, N]
  o = run(mma_args(d, "sm120", kMxfp8) + scale_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("sb.npy")), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("[1, 1, 8]"), std::string::npos) << o.output;
  const std::string nvfp4 = "mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3";
  mmaemu::write_npy(d.file("a.npy"), array(1, {1, 16, 64}, 0x02));
  mmaemu::write_npy(d.file("b.npy"), array(1, {1, 64, 8}, 0x02));
  NpyArray sa = array(1, {1, 16, 4}, 0x38);
  sa.values[5] = 0xB8;  // a sign bit: ue4m3 has none
  mmaemu::write_npy(d.file("sa.npy"), sa);
  mmaemu::write_npy(d.file("sb.npy"), array(1, {1, 4, 8}, 0x38));
  o = run(mma_args(d, "sm120", nvfp4) + scale_args(d));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("sa.npy")), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("element 5"), std::string::npos) << o.output;
  sa.values[5] = 0x38;
  mmaemu::write_npy(d.file("sa.npy"), sa);
  o = run(mma_args(d, "sm120", nvfp4) + scale_args(d));
  ASSERT_EQ(o.status, 0) << o.output;
  for (uint32_t v : mmaemu::read_npy(d.file("d.npy")).values) ASSERT_EQ(v, 0x42820000u);  // 64 * 1 + 1
}

TEST(MmaCli, RejectsUnknownArchitectureAndBackend) {
  TempDir d;
  write_small_int_tile(d);
  EXPECT_EQ(run(mma_args(d, "sm99")).status, 2);
  EXPECT_EQ(run(mma_args(d) + " --backend warp-speed").status, 2);
  EXPECT_EQ(run("mma --arch sm90").status, 2);  // missing required options
}

TEST(RunCli, MisspelledTierKeyGivesFileLineColumn) {
  TempDir d;
  const std::string tier = d.file("bad.yaml");
  std::ofstream(tier) << "tier: T2\nsuites:\n  - name: x\n    kind: fixture-replay\n    lables: [T2]\n";
  const Outcome o = run("run " + tier + " --report-dir " + d.file("reports"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(tier + ":5:5"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("lables"), std::string::npos) << o.output;
}

// --seed seeds every suite whose tier file gives no seed (T3p's live parity draws a fresh one and
// names it in its report), so a reported seed replays the run; a seed the tier file gives stands.
TEST(RunCli, SeedSeedsTheSuitesThatGiveNone) {
  TempDir d;
  auto tier_with = [&](const std::string& seed_line) {
    const std::string tier = d.file("T3.yaml");
    std::ofstream(tier) << "tier: T3\nsuites:\n  - name: s\n    kind: kernel-conformance\n    backends: [host]\n"
                           "    profiles: [sm90]\n    instructions: [mma.m16n8k16.f32.bf16.bf16.f32]\n"
                           "    families: [realistic]\n    tiles: 1\n" + seed_line;
    return tier;
  };
  auto reason_of = [&](const std::string& args) {
    const Outcome o = run("run " + args + " --quiet --report-dir " + d.file("r") + " --report-stem s");
    EXPECT_EQ(o.status, 0) << o.output;
    std::ifstream in(d.file("r/s.json"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find("\"reason\"");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_NE(reason_of(tier_with("") + " --seed 424242").find("seed 424242"), std::string::npos);
  EXPECT_NE(reason_of(tier_with("")).find("seed 1\""), std::string::npos);  // the kind's fixed default
  EXPECT_NE(reason_of(tier_with("    seed: 7\n") + " --seed 424242").find("seed 7\""), std::string::npos);
}

// A property suite's cases are samples: --seed replaces even the seed its tier file gives, and --cases
// its budget, so that a run can be deepened or sampled anew; the report names both.
TEST(RunCli, SeedAndCasesReplaceAPropertySuitesOwn) {
  TempDir d;
  const std::string tier = d.file("T5.yaml");
  std::ofstream(tier) << "tier: T5\nsuites:\n  - name: p\n    kind: properties\n    properties: [negation]\n"
                         "    backends: [host]\n    profiles: [sm80]\n    cases: 5\n    seed: 3\n";
  const auto run_with = [&](const std::string& options) {
    const Outcome o = run("run " + tier + options + " --quiet --report-dir " + d.file("r") + " --report-stem p");
    EXPECT_EQ(o.status, 0) << o.output;
    std::ifstream in(d.file("r/p.json"));
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string given = run_with("");
  EXPECT_NE(given.find("seed 3;"), std::string::npos) << given;
  EXPECT_NE(given.find("\"compared\": 5,"), std::string::npos) << given;  // one group, 5 cases
  const std::string replaced = run_with(" --seed 9 --cases 7");
  EXPECT_NE(replaced.find("seed 9;"), std::string::npos) << replaced;
  EXPECT_NE(replaced.find("\"compared\": 7,"), std::string::npos) << replaced;
}

TEST(InfoCli, ListsProfilesAndInstructions) {
  const Outcome o = run("info");
  ASSERT_EQ(o.status, 0) << o.output;
  for (const char* s : {"sm70", "sm90", "sm120", "wgmma.m64n8k32.f32.e4m3.e4m3", "reference", "backend-equals-reference",
                        "conversion-ties-to-even"})
    EXPECT_NE(o.output.find(s), std::string::npos) << s;
}

// cuBLASLt is opened on first use (harness/cublaslt/lt_loader.hpp): a start that never reaches the GPU's
// library does not load it (the dynamic loader's own trace says which libraries it opened), while `info`,
// which reports the library, does. A build without CUDA never loads it.
TEST(Cli, StartsWithoutLoadingCublasLt) {
  const Outcome version = run("--version", "LD_DEBUG=libs");
  ASSERT_EQ(version.status, 0) << version.output;
  EXPECT_EQ(version.output.find("libcublasLt"), std::string::npos) << version.output;
  const Outcome info = run("info", "LD_DEBUG=libs");
  ASSERT_EQ(info.status, 0) << info.output;
  if (info.output.find("CUDA runtime:") == std::string::npos) GTEST_SKIP() << "built without CUDA: no cuBLASLt to load";
  EXPECT_NE(info.output.find("libcublasLt"), std::string::npos) << "info reports cuBLASLt without loading it?";
}

// A cuBLASLt that cannot be loaded is named with the loader's reason, and the program still runs.
TEST(InfoCli, SaysWhyNoCublasLtLoads) {
  const Outcome o = run("info", "MMAEMU_CUBLASLT=/nonexistent/libcublasLt.so.13");
  ASSERT_EQ(o.status, 0) << o.output;
  if (o.output.find("CUDA runtime:") == std::string::npos) GTEST_SKIP() << "built without CUDA: no cuBLASLt to load";
  EXPECT_NE(o.output.find("cuBLASLt: cuBLASLt could not be loaded: /nonexistent/libcublasLt.so.13"), std::string::npos)
      << o.output;
}

// The Done-when check of the fixtures: `mmaemu mma` reproduces the H200's bits from the .npy files, on
// the reference (the default) and on the kernels' arithmetic run on the CPU (backend host).
void expect_reproduces_h200(const std::string& backend_option, const std::string& set_name = "h200",
                             int min_instructions = 11) {
  const fs::path set = fs::path(MMAEMU_SOURCE_DIR) / "fixtures" / set_name;
  if (!fs::exists(set / "manifest.yaml")) GTEST_SKIP() << "no H200 fixture set at " << set;
  TempDir d;
  int instructions = 0;
  for (const auto& entry : fs::directory_iterator(set)) {
    if (!entry.is_directory()) continue;
    const std::string instr = entry.path().filename().string();
    const std::string out = d.file(instr + ".npy");
    const Outcome o = run("mma --arch sm90 --instr " + instr + " --a " + (entry.path() / "a.npy").string() +
                          " --b " + (entry.path() / "b.npy").string() + " --c " +
                          (entry.path() / "c.npy").string() + " --out " + out + backend_option);
    ASSERT_EQ(o.status, 0) << instr << ": " << o.output;
    const NpyArray want = mmaemu::read_npy(entry.path() / "d.npy");
    const NpyArray got = mmaemu::read_npy(out);
    ASSERT_EQ(want.shape, got.shape) << instr;
    size_t differ = 0;
    for (size_t i = 0; i < want.values.size(); ++i) differ += want.values[i] != got.values[i];
    EXPECT_EQ(differ, 0u) << instr << ": " << differ << " of " << want.values.size() << " outputs differ";
    ++instructions;
  }
  EXPECT_GE(instructions, min_instructions);
}

TEST(MmaCli, ReproducesRecordedH200Bits) { expect_reproduces_h200(""); }
TEST(MmaCli, HostBackendReproducesRecordedH200Bits) { expect_reproduces_h200(" --backend host"); }
TEST(MmaCli, ReproducesRecordedH200Fp64Bits) { expect_reproduces_h200("", "h200-fp64", 4); }
TEST(MmaCli, HostBackendReproducesRecordedH200Fp64Bits) { expect_reproduces_h200(" --backend host", "h200-fp64", 4); }

// fp64 operands are uint64 arrays: A = 1.5, B = 2.0 everywhere, C = 0.25 -> D = 4 * 3 + 0.25 = 12.25;
// a uint32 array for them is exit 2 naming the file.
TEST(MmaCli, Fp64TakesUint64ArraysAndRejectsNarrowerOnes) {
  TempDir d;
  const auto f64 = [](std::vector<size_t> shape, uint64_t bits) {
    NpyArray a;
    a.word_bytes = 8;
    a.shape = std::move(shape);
    for (size_t i = 0; i < a.size(); ++i) a.values.insert(a.values.end(), {uint32_t(bits), uint32_t(bits >> 32)});
    return a;
  };
  mmaemu::write_npy(d.file("a.npy"), f64({2, 8, 4}, 0x3FF8000000000000ull));
  mmaemu::write_npy(d.file("b.npy"), f64({2, 4, 8}, 0x4000000000000000ull));
  mmaemu::write_npy(d.file("c.npy"), f64({2, 8, 8}, 0x3FD0000000000000ull));
  const std::string instr = "mma.m8n8k4.f64.f64.f64.f64";
  for (const char* backend : {"", " --backend host"}) {
    const Outcome o = run(mma_args(d, "sm80", instr) + backend);
    ASSERT_EQ(o.status, 0) << o.output;
    const NpyArray out = mmaemu::read_npy(d.file("d.npy"));
    EXPECT_EQ(out.word_bytes, 8);
    EXPECT_EQ(out.shape, (std::vector<size_t>{2, 8, 8}));
    ASSERT_EQ(out.values.size(), 2u * 2 * 8 * 8);
    for (size_t i = 0; i < out.values.size(); i += 2)
      ASSERT_EQ(uint64_t{out.values[i]} | uint64_t{out.values[i + 1]} << 32, 0x4028800000000000ull) << i;  // 12.25
  }
  mmaemu::write_npy(d.file("c.npy"), array(4, {2, 8, 8}, 0));
  const Outcome bad = run(mma_args(d, "sm80", instr));
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find(d.file("c.npy")), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("uint64"), std::string::npos) << bad.output;
}

// --- mmaemu gemm ----------------------------------------------------------------------------------

// fp16 operands and fp32 addends with varied exponents and signs (finite), batch x M x N x K.
void write_gemm(const TempDir& d, size_t batch, size_t M, size_t N, size_t K, bool batched, uint32_t seed) {
  uint32_t x = seed;
  auto next = [&] { return x = x * 1664525u + 1013904223u; };
  auto shape = [&](size_t r, size_t c) { return batched ? std::vector<size_t>{batch, r, c} : std::vector<size_t>{r, c}; };
  NpyArray A = array(2, shape(M, K), 0), B = array(2, shape(K, N), 0), C = array(4, shape(M, N), 0);
  for (auto& v : A.values) v = (next() >> 9) % 0x7800 | (next() & 0x8000);
  for (auto& v : B.values) v = (next() >> 9) % 0x7800 | (next() & 0x8000);
  for (auto& v : C.values) v = ((next() >> 5) % 0x4F000000u + 0x20000000u) | (next() & 0x80000000u);
  mmaemu::write_npy(d.file("a.npy"), A);
  mmaemu::write_npy(d.file("b.npy"), B);
  mmaemu::write_npy(d.file("c.npy"), C);
}

std::string gemm_args(const TempDir& d, const std::string& out, const std::string& backend, const std::string& trace = "") {
  return "gemm --arch sm90 --instr " + kInstr + " --a " + d.file("a.npy") + " --b " + d.file("b.npy") + " --c " +
         d.file("c.npy") + " --out " + d.file(out) + (backend.empty() ? "" : " --backend " + backend) +
         (trace.empty() ? "" : " --trace " + d.file(trace));
}

TEST(GemmCli, EveryBackendGivesTheReferenceBitsAndTrace) {
  TempDir d;
  write_gemm(d, 2, 5, 3, 37, true, 7);  // K = 37: two full steps of k16 and a padded third
  const Outcome ref = run(gemm_args(d, "ref.npy", "", "ref_trace.npy"));
  ASSERT_EQ(ref.status, 0) << ref.output;
  EXPECT_NE(ref.output.find("backend reference ran"), std::string::npos) << ref.output;
  const NpyArray D = mmaemu::read_npy(d.file("ref.npy")), T = mmaemu::read_npy(d.file("ref_trace.npy"));
  EXPECT_EQ(D.shape, (std::vector<size_t>{2, 5, 3}));
  EXPECT_EQ(D.word_bytes, 4);
  EXPECT_EQ(T.shape, (std::vector<size_t>{2, 5, 3, 3}));
  for (size_t o = 0; o < D.size(); ++o) ASSERT_EQ(T.values[o * 3 + 2], D.values[o]);  // the last step is D
  for (const std::string backend : {"host", "auto"}) {
    const Outcome o = run(gemm_args(d, backend + ".npy", backend, backend + "_trace.npy"));
    ASSERT_EQ(o.status, 0) << backend << ": " << o.output;
    EXPECT_NE(o.output.find("mmaemu: backend "), std::string::npos) << o.output;
    EXPECT_EQ(mmaemu::read_npy(d.file(backend + ".npy")).values, D.values) << backend;
    EXPECT_EQ(mmaemu::read_npy(d.file(backend + "_trace.npy")).values, T.values) << backend;
  }
}

TEST(GemmCli, UnbatchedArraysGiveUnbatchedResults) {
  TempDir d;
  write_gemm(d, 1, 4, 9, 16, false, 11);
  const Outcome o = run(gemm_args(d, "d.npy", "host", "t.npy"));
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(mmaemu::read_npy(d.file("d.npy")).shape, (std::vector<size_t>{4, 9}));
  EXPECT_EQ(mmaemu::read_npy(d.file("t.npy")).shape, (std::vector<size_t>{4, 9, 1}));
  ASSERT_EQ(run(gemm_args(d, "r.npy", "reference")).status, 0);
  EXPECT_EQ(mmaemu::read_npy(d.file("d.npy")).values, mmaemu::read_npy(d.file("r.npy")).values);
}

TEST(GemmCli, RejectsMismatchedShapesAndDtypesNamingTheFile) {
  TempDir d;
  write_gemm(d, 1, 4, 8, 16, false, 3);
  mmaemu::write_npy(d.file("b.npy"), array(2, {15, 8}, 0x3C00));  // K 15 against A's 16
  Outcome o = run(gemm_args(d, "d.npy", ""));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("b.npy")), std::string::npos) << o.output;
  mmaemu::write_npy(d.file("b.npy"), array(4, {16, 8}, 0));  // uint32 for an fp16 operand
  o = run(gemm_args(d, "d.npy", ""));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("dtype"), std::string::npos) << o.output;
  mmaemu::write_npy(d.file("b.npy"), array(2, {16, 8}, 0));
  mmaemu::write_npy(d.file("c.npy"), array(4, {2, 4, 8}, 0));  // batched C, unbatched A
  o = run(gemm_args(d, "d.npy", ""));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("c.npy")), std::string::npos) << o.output;
  mmaemu::write_npy(d.file("c.npy"), array(4, {1, 1, 4, 8}, 0));
  o = run(gemm_args(d, "d.npy", ""));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(d.file("c.npy")), std::string::npos) << o.output;
  EXPECT_FALSE(fs::exists(d.file("d.npy")));
}

TEST(GemmCli, UnknownBackendIsExit2AndV1RunsExactlyWhenADeviceExists) {
  TempDir d;
  write_gemm(d, 1, 2, 8, 16, false, 5);
  Outcome o = run(gemm_args(d, "d.npy", "warp-speed"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("unknown backend"), std::string::npos) << o.output;
  // simt: whether it may run is decided by `mmaemu info`'s device query, not by simt's own outcome.
  // Without a device (or without CUDA in the build) it declines with the reason, exit 2 and no D;
  // with one it runs and gives the reference's bits.
  const Outcome info = run("info");
  ASSERT_EQ(info.status, 0) << info.output;
  const bool has_device = info.output.find("\n  [0] ") != std::string::npos;
  o = run(gemm_args(d, "simt.npy", "simt"));
  if (!has_device) {
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_TRUE(o.output.find("unknown backend") != std::string::npos ||
                o.output.find("no NVIDIA GPU on this machine") != std::string::npos ||
                o.output.find("no usable CUDA device") != std::string::npos) << o.output;
    EXPECT_FALSE(fs::exists(d.file("simt.npy")));
    return;
  }
  ASSERT_EQ(o.status, 0) << o.output;
  const Outcome ref = run(gemm_args(d, "ref.npy", "reference"));
  ASSERT_EQ(ref.status, 0) << ref.output;
  EXPECT_EQ(mmaemu::read_npy(d.file("simt.npy")).values, mmaemu::read_npy(d.file("ref.npy")).values);
}

TEST(MmaCli, AutoSaysWhichBackendRan) {
  TempDir d;
  write_small_int_tile(d);
  const Outcome o = run(mma_args(d) + " --backend auto");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("mmaemu: backend "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("(auto)"), std::string::npos) << o.output;
  for (uint32_t v : mmaemu::read_npy(d.file("d.npy")).values) ASSERT_EQ(v, 0x42C20000u);
}

TEST(InfoCli, ShowsTheLadderAndCoverage) {
  const Outcome o = run("info --arch sm90");
  ASSERT_EQ(o.status, 0) << o.output;
  for (const char* s : {"fallback ladder", "host", "reference", "every profile and instruction"})
    EXPECT_NE(o.output.find(s), std::string::npos) << s;
}

// `mmaemu gemm --library cublaslt-h200 --algo auto`: recorded cuBLASLt calls (split-K, FP8 promotion,
// alpha and beta) reproduced from .npy operands alone, the configuration taken from the profile's resolver.
namespace {

const mmaemu::lt::Recording& cublaslt_recording() {
  static const auto rec =
      mmaemu::lt::read_recording(fs::path(MMAEMU_SOURCE_DIR) / "fixtures/cublaslt-h200/recorded");
  return rec;
}

// The first recorded call whose heuristic's first choice ran, matching `pick`.
template <class Pick>
const mmaemu::lt::RecordedCall* find_call(Pick pick) {
  for (const auto& c : cublaslt_recording().calls)
    if (!c.runs.empty() && c.runs[0].rank == 0 && !c.runs[0].rejected && pick(c)) return &c;
  return nullptr;
}

void write_matrix(const std::string& file, const std::vector<uint32_t>& v, mmaemu::ref::FormatId f, size_t rows,
                  size_t cols) {
  mmaemu::NpyArray a;
  a.word_bytes = mmaemu::storage_bytes(f);
  a.shape = {rows, cols};
  a.values = v;
  mmaemu::write_npy(file, a);
}

// A, B and C of `call` as the .npy files library_args names, in `dir`.
template <class Operands>
void write_operands(const TempDir& dir, const Operands& ops, const mmaemu::lt::LtCall& call) {
  write_matrix(dir.file("a.npy"), ops.a, call.a, call.M, call.K);
  write_matrix(dir.file("b.npy"), ops.b, call.b, call.K, call.N);
  write_matrix(dir.file("c.npy"), ops.c, call.c, call.M, call.N);
}

std::string library_args(const mmaemu::lt::LtCall& call, const TempDir& dir) {
  auto f = [](mmaemu::ref::FormatId x) { return std::string(mmaemu::ref::format_name(x)); };
  std::string args = "gemm --library cublaslt-h200 --a " + dir.file("a.npy") + " --b " + dir.file("b.npy") + " --c " +
                     dir.file("c.npy") + " --out " + dir.file("d.npy") + " --a-type " + f(call.a) + " --b-type " +
                     f(call.b) + " --d-type " + f(call.d) + " --alpha " + std::to_string(call.alpha) + " --beta " +
                     std::to_string(call.beta);
  if (call.is_fp8())
    args += " --scale-a " + std::to_string(call.scale_a) + " --scale-b " + std::to_string(call.scale_b) +
            (call.fast_accum ? " --fast-accum" : "");
  return args + " --algo auto";
}

}  // namespace

TEST(LibraryGemmCli, ReproducesRecordedCublasLtCalls) {
  using mmaemu::ref::FormatId;
  const std::vector<const mmaemu::lt::RecordedCall*> calls = {
      find_call([](const auto& c) { return c.call.a == FormatId::bf16 && c.runs[0].config.split_k > 4; }),
      find_call([](const auto& c) { return c.call.a == FormatId::e4m3 && !c.call.fast_accum && c.call.beta != 0; }),
      find_call([](const auto& c) { return c.call.d == FormatId::fp16 && c.call.alpha != 1.0f; }),
  };
  for (const auto* c : calls) {
    ASSERT_NE(c, nullptr) << "the committed recording lacks a call this test needs";
    // alpha and beta go through the command line in decimal: only calls whose values survive it.
    ASSERT_EQ(std::stof(std::to_string(c->call.alpha)), c->call.alpha);
    TempDir dir;
    const auto ops = mmaemu::lt::operands_of(cublaslt_recording(), *c);
    write_operands(dir, ops, c->call);
    const auto recorded = mmaemu::lt::read_d(cublaslt_recording().dir / c->runs[0].d_file, c->call);
    // The reference (default) and the kernels' library GEMM on the CPU give the recorded bits.
    for (const char* backend : {"reference", "host"}) {
      const Outcome o = run(library_args(c->call, dir) + " --backend " + backend);
      ASSERT_EQ(o.status, 0) << backend << ": " << o.output;
      EXPECT_EQ(mmaemu::read_npy(dir.file("d.npy")).values, recorded) << c->call.name() << " on " << backend;
    }
  }
}

TEST(LibraryGemmCli, AnUnknownLibraryBackendIsExit2) {
  const auto* c = find_call([](const auto& x) { return x.call.a == mmaemu::ref::FormatId::bf16; });
  ASSERT_NE(c, nullptr);
  TempDir dir;
  const auto ops = mmaemu::lt::operands_of(cublaslt_recording(), *c);
  write_operands(dir, ops, c->call);
  const Outcome o = run(library_args(c->call, dir) + " --backend tiled");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--backend"), std::string::npos) << o.output;
}

// A workspace limit the resolver was not fitted for, and a call whose resolved kernel the library model
// has no rules for: exit 2 naming --algo auto (and the algorithm), never a guess.
TEST(LibraryGemmCli, ACallOutsideTheResolverOrTheModelIsExit2) {
  TempDir dir;
  mmaemu::lt::LtCall call;
  call.a = call.b = mmaemu::ref::FormatId::tf32;
  call.compute = mmaemu::lt::ComputeType::f32_fast_tf32;
  call.M = 65;
  call.N = 33;
  call.K = 130;  // torch.matmul 33x65x130 in tf32: cuBLASLt runs algorithm 63 (fixtures/torch-h200)
  const auto ops = mmaemu::lt::generate_operands(call, mmaemu::gen::Family::realistic, 1);
  write_operands(dir, ops, call);
  Outcome o = run(library_args(call, dir) + " --layout NN");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--algo auto"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("algorithm 63"), std::string::npos) << o.output;
  o = run(library_args(call, dir) + " --workspace 5000");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("workspace"), std::string::npos) << o.output;
}

// cuBLASLt's bias epilogue from the command line: --bias with beta 1 (C holds the bias broadcast) gives
// the library model's bits for the configuration given; another beta is exit 2 naming --beta; a torch
// bias call is described as torch sends it (EPILOGUE_BIAS, a 1 MiB workspace limit) and its answer's
// certainty says it is a bias call's.
TEST(LibraryGemmCli, TheBiasEpilogueIsDescribedAndComputed) {
  TempDir dir;
  mmaemu::lt::LtCall call;
  call.a = call.b = call.c = call.d = mmaemu::ref::FormatId::bf16;
  call.M = 8;
  call.N = 6;
  call.K = 200;
  call.beta = 1.0f;
  call.bias = true;
  auto ops = mmaemu::lt::generate_operands(call, mmaemu::gen::Family::realistic, 3);
  for (size_t m = 0; m < call.M; ++m)  // the bias broadcast along D's rows
    for (size_t n = 1; n < call.N; ++n) ops.c[m * call.N + n] = ops.c[m * call.N];
  write_operands(dir, ops, call);
  std::ofstream(dir.file("algo.json")) << R"({"algo_id": 23, "tile": 0, "stages": 0, "split_k": 2, "reduction": 1, "custom": 0, "stages_name": "64x1"})";
  std::string args = library_args(call, dir);
  args = args.substr(0, args.size() - std::string(" --algo auto").size()) + " --algo " + dir.file("algo.json");
  Outcome o = run(args + " --bias");
  ASSERT_EQ(o.status, 0) << o.output;
  mmaemu::ref::LibraryAlgo algo;
  algo.algo_id = 23;
  algo.split_k = 2;
  algo.reduction = 1;
  algo.stage_k = 64;
  std::vector<uint32_t> want(call.M * call.N);
  mmaemu::ref::library_gemm(mmaemu::lt::library_call(call), algo, ops.a.data(), ops.b.data(), ops.c.data(), want.data());
  EXPECT_EQ(mmaemu::read_npy(dir.file("d.npy")).values, want);
  call.beta = 0.0f;
  o = run(library_args(call, dir) + " --bias");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--beta"), std::string::npos) << o.output;
  const Outcome r = run("resolve --library cublaslt-h200 --torch linear --bias --beta 1 --a-type bf16 --b-type bf16 "
                        "--d-type bf16 --m 64 --n 128 --k 256");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["call"]["epilogue"], "bias");
  EXPECT_EQ(j["call"]["max_workspace"], 1048576);
  EXPECT_NE(j["certainty_basis"].get<std::string>().find("bias-epilogue"), std::string::npos) << r.output;
  // One output feature (the library's M = 1): the heuristic's GEMV kernel, declined by name.
  const Outcome gemv = run("resolve --library cublaslt-h200 --bias --beta 1 --layout NN --workspace 1048576 "
                           "--a-type bf16 --b-type bf16 --d-type bf16 --m 1 --n 128 --k 256");
  ASSERT_EQ(gemv.status, 0) << gemv.output;
  const auto g = nlohmann::json::parse(gemv.output);
  EXPECT_EQ(g["config"]["algo_id"], 13) << gemv.output;
  EXPECT_NE(g["certainty_basis"].get<std::string>().find("M = 1: the GEMV kernel"), std::string::npos) << gemv.output;
}

// PyTorch as the client: a torch.matmul recorded on the H200, computed from the library's view of its
// operands with the layout torch's call reaches the library in, and `mmaemu resolve --torch` naming the
// configuration cuBLASLt logged for it.
TEST(LibraryGemmCli, ReproducesAPyTorchMatmulAsTheLibrarySawIt) {
  const auto rec = mmaemu::lt::read_recording(fs::path(MMAEMU_SOURCE_DIR) / "fixtures/torch-h200");
  const mmaemu::lt::RecordedCall* pick = nullptr;
  for (const auto& c : rec.calls)  // torch.matmul 16 x 256 x 8192 in bf16: split-K 6 on the H200
    if (c.group == "matmul" && c.call.a == mmaemu::ref::FormatId::bf16 && c.call.K == 8192 && c.call.N == 16) pick = &c;
  ASSERT_NE(pick, nullptr) << "the torch fixture lacks the call this test needs";
  ASSERT_EQ(pick->call.layout, mmaemu::lt::Layout::nn);
  ASSERT_GT(pick->runs[0].config.split_k, 1);
  TempDir dir;
  write_operands(dir, mmaemu::lt::operands_of(rec, *pick), pick->call);
  const Outcome o = run(library_args(pick->call, dir) + " --layout NN");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(mmaemu::read_npy(dir.file("d.npy")).values, mmaemu::lt::read_d(rec.dir / pick->runs[0].d_file, pick->call));
  // torch's own shape (m = 16, n = 256): the library's N and M
  const Outcome r = run("resolve --library cublaslt-h200 --torch matmul --a-type bf16 --b-type bf16 --d-type bf16 "
                        "--m 16 --n 256 --k 8192");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["call"]["m"], 256);
  EXPECT_EQ(j["call"]["layout"], "NN");
  EXPECT_EQ(j["config"]["algo_id"], pick->runs[0].config.algo_id);
  EXPECT_EQ(j["config"]["split_k"], pick->runs[0].config.split_k);
}

// --algo CONFIG.json that is a directory, or not JSON: exit 2 naming the file, never an abort.
TEST(LibraryGemmCli, AnUnreadableAlgoConfigIsExit2NamingIt) {
  const auto* c = find_call([](const auto& x) { return x.call.a == mmaemu::ref::FormatId::bf16; });
  ASSERT_NE(c, nullptr);
  TempDir dir;
  const auto ops = mmaemu::lt::operands_of(cublaslt_recording(), *c);
  write_operands(dir, ops, c->call);
  fs::create_directories(dir.file("algo-dir.json"));
  {
    std::ofstream(dir.file("algo-bad.json")) << "{\"algo_id\": 66,";
  }
  for (const std::string name : {"algo-dir.json", "algo-bad.json"}) {
    std::string args = library_args(c->call, dir);
    args.replace(args.find("--algo auto"), std::string("--algo auto").size(), "--algo " + dir.file(name));
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_NE(o.output.find(dir.file(name) + ": "), std::string::npos) << o.output;
  }
}
