#include <gtest/gtest.h>

#include "harness/tiers/native_parity.hpp"
#include "harness/tiers/tests/t3_fake_backends.hpp"
#include "harness/tiers/tests/test_files.hpp"
#include "harness/tiers/tier_loader.hpp"

namespace mmaemu {
namespace {

using testing::FakeBackend;
using testing::input_error_of;
using testing::TempDir;
using testing::write_text;

// A stand-in for the GPU: "native" results from the reference itself, optionally with one bit flipped.
NativeGpu fake_gpu(int sm, bool flip = false) {
  NativeGpu g;
  g.name = "Fake GPU";
  g.sm = sm;
  g.has = [](const std::string& instr, std::string* why) {
    if (instr.rfind("wgmma", 0) == 0) {
      *why = "no wgmma on this stand-in";
      return false;
    }
    return true;
  };
  g.run = [flip](const ref::Instruction& in, size_t tiles, const std::vector<uint32_t>& a,
                 const std::vector<uint32_t>& b, const std::vector<uint32_t>& c, std::vector<uint32_t>& d) {
    d.assign(tiles * in.m * in.n * ref::words_per_element(in.d), 0);  // fp64: two words an output
    ref::mma(ref::lookup(ref::Arch::sm90, in.name), tiles, a.data(), b.data(), c.data(), d.data());
    if (flip) d[3] ^= 1u;
    return std::string();
  };
  return g;
}

class NativeParity : public ::testing::Test {
 protected:
  SuiteSpec load(const std::string& extra = "") {
    write_text(dir / "T3p.yaml",
               "tier: T3p\nsuites:\n  - name: p\n    kind: native-parity\n    profile: sm90\n"
               "    backends: [host, flip]\n    families: [realistic, specials]\n    tiles: 2\n"
               "    instructions: [mma.m16n8k16.f32.f16.f16.f32, mma.m16n8k16.f16.f16.f16.f16, wgmma.m64n8k16.f32.f16.f16,"
               " mma.m16n8k32.f32.e4m3.e5m2.f32]\n" + extra);
    return load_tier(dir / "T3p.yaml").suites.at(0);
  }
  TempDir dir;
  FakeBackend flip{"flip", FakeBackend::Spoil::flip_bit};
  std::vector<const kernels::Backend*> available{&kernels::host_backend(), &flip};
};

TEST_F(NativeParity, ComparesTheReferenceAndEveryBackendWithTheGpu) {
  const SuiteResult r = run_native_parity(load("    seed: 5\n"), available, fake_gpu(90), "");
  EXPECT_EQ(r.verdict, Verdict::fail);  // the flipping backend
  const std::string g = "/sm90/mma.m16n8k16.f32.f16.f16.f32/realistic";
  EXPECT_EQ(r.groups.at("reference" + g).compared, 256u);
  EXPECT_EQ(r.groups.at("reference" + g).mismatched, 0u);
  EXPECT_EQ(r.groups.at("host" + g).mismatched, 0u);
  EXPECT_EQ(r.groups.at("flip" + g).mismatched, 1u);
  EXPECT_NE(r.reason.find("declined: native: no wgmma on this stand-in (1)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("declined: native: no native kernel for this instruction (1)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("seed 5"), std::string::npos);
}

TEST_F(NativeParity, AGpuThatDiffersFromTheReferenceFailsIt) {
  const SuiteResult r = run_native_parity(load(), available, fake_gpu(90, true), "");
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.groups.at("reference/sm90/mma.m16n8k16.f32.f16.f16.f32/realistic").mismatched, 1u);
  EXPECT_NE(r.reason.find("seed "), std::string::npos);  // a fresh seed, named so that it can be replayed
}

TEST_F(NativeParity, SkipsWithoutAGpuOrOnAnotherArchitecture) {
  const SuiteResult none = run_native_parity(load(), available, std::nullopt, "no CUDA device: no CUDA-capable device is detected");
  EXPECT_EQ(none.verdict, Verdict::skip);
  EXPECT_EQ(none.reason, "no CUDA device: no CUDA-capable device is detected");
  const SuiteResult other = run_native_parity(load(), available, fake_gpu(89), "");
  EXPECT_EQ(other.verdict, Verdict::skip);
  EXPECT_EQ(other.reason, "the GPU is Fake GPU (sm89); the suite's profile is sm90");
}

TEST_F(NativeParity, RequireFailsWhenABackendDidNotRun) {
  FakeBackend no_sm90{"no-sm90", FakeBackend::Spoil::none, "sm90"};
  write_text(dir / "T3p.yaml",
             "tier: T3p\nsuites:\n  - name: p\n    kind: native-parity\n    profile: sm90\n    backends: [no-sm90]\n"
             "    families: [realistic]\n    tiles: 1\n    instructions: [mma]\n    require: [no-sm90]\n");
  const SuiteResult r = run_native_parity(load_tier(dir / "T3p.yaml").suites.at(0), {&no_sm90}, fake_gpu(90), "");
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.reason.find("required backend 'no-sm90' did not run"), std::string::npos) << r.reason;
}

TEST_F(NativeParity, BadKeysAreInputErrorsEvenWhenTheSuiteWouldSkip) {
  const InputError typo = input_error_of([&] { load("    tile: 3\n"); });
  EXPECT_NE(std::string(typo.what()).find("tile"), std::string::npos);
  write_text(dir / "T3p.yaml",
             "tier: T3p\nsuites:\n  - name: p\n    kind: native-parity\n    profile: sm90\n    backends: [all]\n"
             "    families: [nope]\n");
  const InputError family = input_error_of(
      [&] { run_native_parity(load_tier(dir / "T3p.yaml").suites.at(0), available, std::nullopt, "none"); });
  EXPECT_EQ(family.where(), (dir / "T3p.yaml").string() + ":7:15");
  EXPECT_NE(std::string(family.what()).find("unknown input family 'nope'"), std::string::npos) << family.what();
}

}  // namespace
}  // namespace mmaemu
