// The probe, blind, against the reference model as its oracle: it must infer every built-in profile
// back, parameter by parameter, and a profile with unusual parameters too; a device outside the
// model's hypotheses must be reported as not established, never guessed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness/probe/infer.hpp"
#include "harness/probe/probe_report.hpp"
#include "harness/profiles/profile_file.hpp"
#include "mmaemu/reference/format.hpp"

using namespace mmaemu;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kParameters = {"form",   "k",        "lowered",  "frac-bits",        "truncation",
                                              "result", "rounding", "overflow", "zero-product-exp", "zero-sign",
                                              "tf32-input"};

probe::ProbeOptions quick() {
  probe::ProbeOptions o;
  o.fresh_tiles_per_family = 2;
  return o;
}

// Every finding equals the built-in value, or is unobservable and the built-in model gives the same bits.
void expect_inferred(const probe::InstructionProbe& p, const ref::InstructionModel& truth) {
  ASSERT_TRUE(p.reproduced()) << p.instr << ": " << p.stopped;
  for (const auto& f : p.findings) {
    if (std::find(kParameters.begin(), kParameters.end(), f.parameter) == kParameters.end()) continue;
    const std::string want = probe::builtin_value(truth, f.parameter);
    if (f.status == probe::FindingStatus::unobservable) continue;  // checked in bits below
    EXPECT_EQ(f.value, want) << p.instr << " " << f.parameter;
  }
  std::vector<uint32_t> d(p.fresh.d.size());
  ref::mma(truth, static_cast<size_t>(p.fresh.tiles), p.fresh.a.data(), p.fresh.b.data(), p.fresh.c.data(), d.data());
  EXPECT_EQ(d, p.fresh.d) << p.instr;
}

// Every instruction of `arch` (block-scaled ones aside: not probed yet) is inferred, except those whose
// formats leave the probe fewer binades than the block keeps fraction bits: those must say so.
void probe_every_instruction_of(ref::Arch arch, int only_m = 0, bool same_ab_only = false) {
  auto oracle = probe::reference_oracle(arch);
  probe::Prober prober(*oracle, quick());
  int inferred = 0, too_narrow = 0;
  for (const auto& m : ref::builtin_instructions_of(arch)) {
    if (ref::is_wide_n_variant(m.instr) || m.instr.scale || (only_m && m.instr.m != only_m)) continue;
    if (same_ab_only && m.instr.a != m.instr.b) continue;
    SCOPED_TRACE(m.instr.name);
    const auto& p = prober.probe(m.instr.name);
    if (!m.fma_chain && !m.lowering && probe::ValueMaker(m.instr).spread() <= m.block.frac_bits) {
      EXPECT_FALSE(p.reproduced());
      EXPECT_NE(p.stopped.find("binades"), std::string::npos) << p.stopped;
      ++too_narrow;
      continue;
    }
    expect_inferred(p, m);
    ++inferred;
  }
  EXPECT_GT(inferred, 0);
  std::cout << ref::arch_name(arch) << ": " << inferred << " inferred, " << too_narrow << " beyond the probe's range\n";
}

}  // namespace

TEST(ProbeReference, InfersEverySm90Instruction) { probe_every_instruction_of(ref::Arch::sm90); }
TEST(ProbeReference, InfersEverySm89Instruction) { probe_every_instruction_of(ref::Arch::sm89); }
TEST(ProbeReference, InfersEverySm70AndSm75Instruction) {
  for (ref::Arch a : {ref::Arch::sm70, ref::Arch::sm75}) probe_every_instruction_of(a);
}
// tcgen05 at M = 64 (M = 128 is the same block model), A and B of one format (mixed pairs add no rule).
TEST(ProbeReference, InfersSm100Instructions) { probe_every_instruction_of(ref::Arch::sm100, 64, true); }

// Parameters no built-in profile has (F = 21, floor truncation, nearest-even fp32 blocks of 4, zero
// products at 2^-100, max-finite overflow): found as they are, not as any shipped profile has them.
TEST(ProbeReference, InfersAnUnusualProfile) {
  const std::string name = "mma.m16n8k16.f32.bf16.bf16.f32";
  ref::InstructionModel m = ref::lookup(ref::Arch::sm90, name);
  m.block.block_k = 4;
  m.block.frac_bits = 21;
  m.block.truncation = ref::Truncation::floor;
  m.block.rounding = ref::Rounding::nearest_even;
  m.block.zero_product_exp = -100;
  ref::install_profile(ref::Arch::sm90, {m}, true, "unusual");
  auto oracle = probe::reference_oracle(ref::Arch::sm90);
  probe::Prober prober(*oracle, quick());
  const auto& p = prober.probe(name);
  expect_inferred(p, m);
  std::string diff;
  EXPECT_TRUE(profiles::same_model(*p.model, m, &diff)) << diff;
  ref::restore_builtin_profile(ref::Arch::sm90);
}

// An oracle outside the model's hypotheses (an fp32 FMA chain: no alignment window at all) is reported
// as not established, naming the experiment and a case, never fitted to the nearest candidate.
namespace {
class FmaChainOracle final : public probe::Oracle {
 public:
  std::string describe() const override { return "fp32 FMA chain (a test double)"; }
  ref::Arch arch() const override { return ref::Arch::sm90; }
  bool has(const std::string&, std::string*) const override { return true; }
  record::Provenance provenance(const std::string&) const override { return {}; }
  std::vector<uint32_t> run(const record::InstructionRecording& t) override {
    const auto& in = t.instr;
    std::vector<uint32_t> d(t.outputs());
    const auto f32 = [](ref::FormatId f, uint32_t x) {
      const uint32_t bits = ref::convert(f, x, ref::FormatId::fp32, ref::Rounding::nearest_even);
      float v;
      std::memcpy(&v, &bits, 4);
      return v;
    };
    for (int tile = 0; tile < t.tiles; ++tile)
      for (int r = 0; r < in.m; ++r)
        for (int n = 0; n < in.n; ++n) {
          float acc = f32(in.c, t.c[(static_cast<size_t>(tile) * in.m + r) * in.n + n]);
          for (int k = 0; k < in.k; ++k)
            acc = std::fma(f32(in.a, t.a[(static_cast<size_t>(tile) * in.m + r) * in.k + k]),
                           f32(in.b, t.b[(static_cast<size_t>(tile) * in.k + k) * in.n + n]), acc);
          uint32_t bits;
          std::memcpy(&bits, &acc, 4);
          d[(static_cast<size_t>(tile) * in.m + r) * in.n + n] = bits;
        }
    return d;
  }
};
}  // namespace

TEST(ProbeReference, AnOracleOutsideTheModelIsNotEstablished) {
  FmaChainOracle oracle;
  probe::Prober prober(oracle, quick());
  const auto& p = prober.probe("mma.m16n8k16.f32.bf16.bf16.f32");
  EXPECT_FALSE(p.reproduced());
  EXPECT_FALSE(p.stopped.empty());
  bool named = false;
  for (const auto& f : p.findings)
    if (f.status == probe::FindingStatus::inconsistent || f.status == probe::FindingStatus::ambiguous)
      named |= f.detail.find("case") != std::string::npos || f.detail.find("several") != std::string::npos;
  EXPECT_TRUE(named) << p.stopped;
}

// The command: a dry run on the reference writes a profile that replays the probe's recordings in T2,
// and the recorded oracle infers the same profile from those recordings; a probe of the GPU without one
// is exit 2 with the reason.
TEST(ProbeCli, DryRunWritesAProfileThatReplaysInT2) {
  const fs::path out = fs::temp_directory_path() / ("mmaemu-probe-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string bin = MMAEMU_BIN;
  const std::string log = " > " + (out.string() + ".log") + " 2>&1";
  ASSERT_EQ(WEXITSTATUS(std::system((bin + " probe --oracle reference --arch sm90 --instr mma.m16n8k8.f32.tf32.tf32.f32 "
                                     "--instr wgmma.m64n8k32.f32.e5m2.e5m2 --fresh-tiles-per-family 2 --out " +
                                     out.string() + log).c_str())),
            0);
  for (const char* f : {"profile.yaml", "report.md", "report.json", "T2-probe.yaml", "fixtures/probe/manifest.yaml",
                        "fixtures/fresh/manifest.yaml"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  const auto loaded = profiles::load_profile_file(out / "profile.yaml");
  EXPECT_EQ(loaded.instructions.size(), 2u);
  EXPECT_EQ(WEXITSTATUS(std::system((bin + " --profile " + (out / "profile.yaml").string() + " run " +
                                     (out / "T2-probe.yaml").string() + " --report-dir " + (out / "reports").string() + log)
                                        .c_str())),
            0);
  // The same inference again from the recordings alone (the recorded oracle): the same profile.
  const fs::path replay = out / "replay";
  ASSERT_EQ(WEXITSTATUS(std::system((bin + " probe --oracle recorded:" + (out / "fixtures/probe").string() + "," +
                                     (out / "fixtures/fresh").string() + " --instr mma.m16n8k8.f32.tf32.tf32.f32 "
                                     "--instr wgmma.m64n8k32.f32.e5m2.e5m2 --fresh-tiles-per-family 2 --out " + replay.string() + log)
                                        .c_str())),
            0);
  const auto replayed = profiles::load_profile_file(replay / "profile.yaml");
  ASSERT_EQ(replayed.instructions.size(), loaded.instructions.size());
  for (size_t i = 0; i < replayed.instructions.size(); ++i)
    EXPECT_TRUE(profiles::same_model(replayed.instructions[i], loaded.instructions[i])) << replayed.instructions[i].instr.name;
  // Without a GPU (this test runs where there is none, or names a device that does not exist).
  EXPECT_EQ(WEXITSTATUS(std::system((bin + " probe --device 99 --out " + (out / "gpu").string() + log).c_str())), 2);
  fs::remove_all(out);
}

// The library probe, blind, against the library model: kernels 66 (bf16, e4m3) and 55 (both custom
// options) come back as the model has them; an oracle that ignores split-K is not established.
#include "harness/probe/library_probe.hpp"

namespace {
std::string builtin_of(const probe::LibraryProbe& p, const std::string& parameter) {
  for (const auto& [k, v] : p.builtin)
    if (k == parameter) return v;
  return "";
}
}  // namespace

TEST(LibraryProbe, InfersKernels66And55FromTheLibraryModel) {
  auto oracle = probe::reference_library_oracle();
  for (const char* k : {"bf16:66", "e4m3:66", "fp32:55", "fp32:55:1"}) {
    SCOPED_TRACE(k);
    const auto p = probe::probe_library_kernel(*oracle, *probe::parse_library_kernel(k), 1);
    ASSERT_TRUE(p.reproduced()) << p.stopped;
    for (const auto& f : p.findings)
      if (f.status == probe::FindingStatus::established) EXPECT_EQ(f.value, builtin_of(p, f.parameter)) << f.parameter;
  }
}

namespace {
class IgnoresSplitK final : public probe::LibraryOracle {
 public:
  std::string describe() const override { return "a library that ignores split-K (a test double)"; }
  std::optional<std::vector<uint32_t>> run(const lt::LtCall& call, int algo, int, int custom, const lt::LtOperands& ops,
                                           std::string* why, lt::LtAlgoConfig* ran) override {
    return model_->run(call, algo, 1, custom, ops, why, ran);
  }

 private:
  std::unique_ptr<probe::LibraryOracle> model_ = probe::reference_library_oracle();
};
}  // namespace

TEST(LibraryProbe, ALibraryOutsideTheRulesIsNotEstablished) {
  IgnoresSplitK oracle;
  const auto p = probe::probe_library_kernel(oracle, *probe::parse_library_kernel("bf16:66"), 1);
  EXPECT_FALSE(p.reproduced());
  EXPECT_NE(p.stopped.find("split-K"), std::string::npos) << p.stopped;
}
