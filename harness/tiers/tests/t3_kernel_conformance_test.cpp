#include <gtest/gtest.h>

#include <algorithm>

#include "harness/tiers/kernel_conformance.hpp"
#include "harness/tiers/kernel_conformance_plan.hpp"
#include "harness/tiers/tests/t3_fake_backends.hpp"
#include "harness/tiers/tests/test_files.hpp"
#include "harness/tiers/tier_loader.hpp"

namespace mmaemu {
namespace {

using testing::FakeBackend;
using testing::input_error_of;
using testing::TempDir;
using testing::write_text;
using Spoil = FakeBackend::Spoil;

// One small suite: one instruction, one family, 2 tiles and one GEMM with edges in M, N and K.
std::string suite_yaml(const std::string& extra, const std::string& backends = "[good]") {
  return "tier: T3\n"
         "suites:\n"
         "  - name: s\n"
         "    kind: kernel-conformance\n"
         "    backends: " + backends + "\n"
         "    profiles: [sm80]\n"
         "    instructions: [mma.m16n8k16.f32.f16.f16.f32]\n"
         "    families: [realistic]\n"
         "    tiles: 2\n"
         "    gemms: [17x9x33]\n" + extra;
}

class KernelConformance : public ::testing::Test {
 protected:
  SuiteSpec load(const std::string& text) {
    write_text(dir / "T3.yaml", text);
    return load_tier(dir / "T3.yaml").suites.at(0);
  }
  SuiteResult run(const std::string& text) { return run_kernel_conformance(load(text), available); }

  TempDir dir;
  FakeBackend good{"good", Spoil::none}, flip{"flip", Spoil::flip_bit}, unwritten{"unwritten", Spoil::leave_unwritten},
      flip_trace{"flip-trace", Spoil::flip_trace}, fails{"fails", Spoil::fail}, no_sm80{"no-sm80", Spoil::none, "sm80"};
  std::vector<const kernels::Backend*> available{&kernels::host_backend(), &good, &flip, &unwritten, &flip_trace, &fails, &no_sm80};
};

TEST_F(KernelConformance, AFaithfulBackendPassesWithItsCounts) {
  const SuiteResult r = run(suite_yaml(""));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  // 2 tiles of 16x8 outputs (1 step) and a 17x9 GEMM of 3 steps: D and trace.
  EXPECT_EQ(r.compared, 2u * 128 * 2 + 17u * 9 * (1 + 3));
  EXPECT_EQ(r.groups.count("good/sm80/mma.m16n8k16.f32.f16.f16.f32/gemm 17x9x33/realistic"), 1u);
  EXPECT_EQ(r.groups.count("good/sm80/mma.m16n8k16.f32.f16.f16.f32/instruction/realistic"), 1u);
  EXPECT_NE(r.reason.find("good: 2 problems, 409 outputs and 715 accumulator steps"), std::string::npos) << r.reason;
}

TEST_F(KernelConformance, AFlippedBitIsCaughtWithInputsExpectedAndGot) {
  const SuiteResult r = run(suite_yaml("", "[flip]"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.mismatched, 2u);  // output 5 of each of the two problems
  ASSERT_FALSE(r.first_mismatches.empty());
  const Mismatch& m = r.first_mismatches.front();
  EXPECT_EQ(m.group, "flip/sm80/mma.m16n8k16.f32.f16.f16.f32/instruction/realistic");
  EXPECT_EQ(m.case_id, "D (0,0,5)");
  EXPECT_EQ(m.inputs.substr(0, 3), "a=[");
  EXPECT_NE(m.inputs.find(" b=["), std::string::npos);
  EXPECT_NE(m.inputs.find(" c="), std::string::npos);
  EXPECT_EQ(std::stoul(m.expected, nullptr, 16) ^ std::stoul(m.got, nullptr, 16), 1u);
}

TEST_F(KernelConformance, AnUnwrittenOutputIsCaught) {
  const SuiteResult r = run(suite_yaml("", "[unwritten]"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_FALSE(r.first_mismatches.empty());
  EXPECT_EQ(r.first_mismatches.front().got, "ffffffff");  // the poison the outputs start with
}

TEST_F(KernelConformance, AWrongAccumulatorStepIsCaughtEvenWhenDIsRight) {
  const SuiteResult r = run(suite_yaml("", "[flip-trace]"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_FALSE(r.first_mismatches.empty());
  EXPECT_EQ(r.first_mismatches.front().case_id.substr(0, 6), "trace ");
}

TEST_F(KernelConformance, WithoutTraceOnlyDIsCompared) {
  const SuiteResult r = run(suite_yaml("    trace: false\n", "[flip-trace]"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  EXPECT_EQ(r.compared, 2u * 128 + 17u * 9);
}

TEST_F(KernelConformance, AFailingBackendIsAnErrorWithItsMessage) {
  const SuiteResult r = run(suite_yaml("", "[good, fails]"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.reason.find("illegal memory access"), std::string::npos) << r.reason;
}

TEST_F(KernelConformance, DeclinesAreCountedPerReasonWithTheirCode) {
  const SuiteResult r = run(suite_yaml("", "[good, no-sm80]"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  EXPECT_NE(r.reason.find("declined: no-sm80 x sm80: no-sm80: no sm80 here (2 problems)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("no-sm80: 0 problems"), std::string::npos) << r.reason;
  const DeclineTally& t = r.coverage.at("no-sm80").declines.at("no-sm80: no sm80 here");
  EXPECT_EQ(t.code, "foreign-target");
  EXPECT_EQ(t.problems, 2u);
}

TEST_F(KernelConformance, RequireFailsWhenANamedBackendDidNotRun) {
  const SuiteResult r = run(suite_yaml("    require: [no-sm80]\n", "[good, no-sm80]"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.reason.find("required backend 'no-sm80' did not run"), std::string::npos) << r.reason;
  EXPECT_EQ(run(suite_yaml("    require: [good]\n", "[good, no-sm80]")).verdict, Verdict::pass);
}

// A required backend that runs some problems and declines the others passes only when every decline
// is one the suite allows: before, one problem run was enough.
TEST_F(KernelConformance, ARequiredBackendMayDeclineOnlyForAnAllowedReason) {
  auto two_profiles = [](std::string y) { return y.replace(y.find("[sm80]"), 6, "[sm80, sm90]"); };
  const SuiteResult r = run(two_profiles(suite_yaml("    require: [no-sm80]\n", "[no-sm80]")));
  EXPECT_EQ(r.verdict, Verdict::fail) << r.reason;
  EXPECT_NE(r.reason.find("required backend 'no-sm80' declined 2 problems for a reason the suite does not allow "
                          "(first: foreign-target: no-sm80: no sm80 here)"), std::string::npos) << r.reason;
  ASSERT_EQ(r.failures.size(), 1u);
  const SuiteResult allowed = run(two_profiles(suite_yaml(
      "    require: [no-sm80]\n    allowed_declines:\n      - {backend: no-sm80, code: foreign-target, why: test}\n",
      "[no-sm80]")));
  EXPECT_EQ(allowed.verdict, Verdict::pass) << allowed.reason;
  EXPECT_TRUE(allowed.failures.empty());
  // An allowed decline of another backend does not excuse this one.
  const SuiteResult other = run(two_profiles(suite_yaml(
      "    require: [no-sm80]\n    allowed_declines:\n      - {backend: good, code: foreign-target, why: test}\n",
      "[good, no-sm80]")));
  EXPECT_EQ(other.verdict, Verdict::fail) << other.reason;
  // Nor does an allowed decline of another code.
  const SuiteResult code = run(two_profiles(suite_yaml(
      "    require: [no-sm80]\n    allowed_declines:\n      - {backend: no-sm80, code: k-stage, why: test}\n",
      "[no-sm80]")));
  EXPECT_EQ(code.verdict, Verdict::fail) << code.reason;
}

// Only the code decides: the same decline reworded gives the same verdicts, allowed or not, and the
// same code under any text is allowed alike. (Before codes, tier files matched a piece of the message,
// so a reworded message failed a suite or quietly widened what it allowed.)
TEST_F(KernelConformance, RewordingADeclineChangesNoVerdict) {
  auto two_profiles = [](std::string y) { return y.replace(y.find("[sm80]"), 6, "[sm80, sm90]"); };
  const std::string allowing = "    require: [reworded]\n    allowed_declines:\n"
                               "      - {backend: reworded, code: foreign-target, why: test}\n";
  const std::string requiring = "    require: [reworded]\n";
  std::vector<Verdict> allowed, refused;
  for (const std::string& text : {std::string("no sm80 here"), std::string("sm80 differs from this GPU"),
                                  std::string("the tensor cores would give another architecture's bits"), std::string("")}) {
    FakeBackend reworded{"reworded", Spoil::none, "sm80"};
    reworded.declining_with(DeclineCode::foreign_target, text);
    available.push_back(&reworded);
    allowed.push_back(run(two_profiles(suite_yaml(allowing, "[reworded]"))).verdict);
    refused.push_back(run(two_profiles(suite_yaml(requiring, "[reworded]"))).verdict);
    available.pop_back();
  }
  for (Verdict v : allowed) EXPECT_EQ(v, Verdict::pass);
  for (Verdict v : refused) EXPECT_EQ(v, Verdict::fail);
  // The allowing entry's words themselves matter as little: a decline of another code, worded as the
  // allowed one used to be, is still refused.
  FakeBackend disguised{"reworded", Spoil::none, "sm80"};
  disguised.declining_with(DeclineCode::k_stage, "reworded: target sm80 differs from this GPU");
  available.push_back(&disguised);
  EXPECT_EQ(run(two_profiles(suite_yaml(allowing, "[reworded]"))).verdict, Verdict::fail);
  available.pop_back();
}

TEST_F(KernelConformance, NothingRunIsAnError) {
  const SuiteResult r = run(suite_yaml("", "[no-sm80]"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.reason.find("nothing was compared"), std::string::npos);
}

TEST_F(KernelConformance, DeviceIndependenceComparesBackendsWithEachOther) {
  const SuiteResult r = run(suite_yaml("    device_independence: host\n", "[good, flip]"));
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.groups.at("good=host/sm80/mma.m16n8k16.f32.f16.f16.f32/gemm 17x9x33/realistic").mismatched, 0u);
  EXPECT_EQ(r.groups.at("flip=host/sm80/mma.m16n8k16.f32.f16.f16.f32/gemm 17x9x33/realistic").mismatched, 1u);
  EXPECT_GT(r.groups.at("host/sm80/mma.m16n8k16.f32.f16.f16.f32/gemm 17x9x33/realistic").compared, 0u);
  EXPECT_NE(r.reason.find("device independence good=host: 409 outputs"), std::string::npos) << r.reason;
}

TEST_F(KernelConformance, MinOutputsTopsUpWithBulkGemms) {
  const SuiteResult r = run(suite_yaml("    trace: false\n    min_outputs: 5000\n    bulk_shape: 32x16x20\n"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  // 409 outputs before; each bulk batch entry adds 512: 9 entries reach 5017.
  EXPECT_EQ(r.groups.count("good/sm80/mma.m16n8k16.f32.f16.f16.f32/bulk 32x16x20 x9/realistic"), 1u);
  EXPECT_NE(r.reason.find("fewest outputs per backend x profile x format: 5017 (good sm80/fp16)"), std::string::npos)
      << r.reason;
}

TEST_F(KernelConformance, TheHostBackendMatchesTheReferenceOnTinyAndEdgeShapes) {
  const SuiteResult r = run(
      "tier: T3\nsuites:\n  - name: s\n    kind: kernel-conformance\n    backends: [host]\n    profiles: [sm90]\n"
      "    instructions: [mma.m16n8k16.f32.bf16.bf16.f32, wgmma.m64n8k8.f32.tf32.tf32]\n"
      "    families: [realistic, small_int]\n    tiles: 1\n    gemms: [1x1x1, 3x5x7, 65x9x17]\n");
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
}

TEST_F(KernelConformance, AGpuSuiteSkipsWithTheReasonWhereNoGpuIsUsable) {
  const auto why = tiers::gpu_unavailable_reason();
  if (!why) GTEST_SKIP() << "a GPU is usable here";
  const SuiteResult r = run_kernel_conformance(load(suite_yaml("    device: gpu\n", "[simt, tiled, tc]")), kernels::backends());
  EXPECT_EQ(r.verdict, Verdict::skip);
  EXPECT_EQ(r.reason, *why);
}

// Tier files written with the CUDA-core backends' old names (v1, v4, v5) still load, in `backends`,
// `require` and `allowed_declines`, and give the verdict the new names give.
TEST_F(KernelConformance, OldBackendNamesInATierFileMeanTheNewOnes) {
  const auto with = [&](const std::string& simt, const std::string& tiled) {
    const std::string rules = "    device: gpu\n    require: [" + simt + "]\n    allowed_declines:\n      - backend: " + tiled +
                              "\n        code: mixed-accumulator\n        why: its tiles hold one accumulator format\n";
    return run_kernel_conformance(load(suite_yaml(rules, "[" + simt + ", " + tiled + ", tc]")), kernels::backends());
  };
  const SuiteResult renamed = with("simt", "tiled");
  const SuiteResult old = with("v1", "v4");
  EXPECT_EQ(old.verdict, renamed.verdict);
  EXPECT_EQ(old.reason, renamed.reason);
}

// The names a build without CUDA accepts for the GPU backends are those a CUDA build registers: a
// GPU backend missing from the list makes every tier file naming it an error in CPU-only builds.
TEST_F(KernelConformance, GpuBackendNamesAreTheCudaBuildsOwn) {
  const std::vector<std::string>& names = tiers::gpu_backend_names();
  size_t gpu_backends = 0;
  for (const kernels::Backend* b : kernels::backends()) {
    const std::string n = b->name();
    if (n == "cpu" || n == "host" || n == "reference") continue;
    ++gpu_backends;
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n << " is missing from gpu_backend_names()";
  }
  if (gpu_backends == 0) GTEST_SKIP() << "a build without CUDA registers no GPU backend";
  EXPECT_EQ(gpu_backends, names.size());
}

// Schema: typos and bad values are reported where they are.
TEST_F(KernelConformance, AMisspelledKeyIsReportedAtItsPlace) {
  write_text(dir / "T3.yaml", suite_yaml("    tiels: 3\n"));
  const InputError e = input_error_of([&] { load_tier(dir / "T3.yaml"); });
  EXPECT_EQ(e.where(), (dir / "T3.yaml").string() + ":11:5");
  EXPECT_NE(std::string(e.what()).find("tiels"), std::string::npos);
}

TEST_F(KernelConformance, BadValuesAreInputErrorsAtTheirPlace) {
  const std::string file = (dir / "T3.yaml").string();
  struct Case {
    std::string extra, backends, where, says;
  };
  const std::vector<Case> cases = {
      {"", "[nosuch]", ":5:15", "unknown backend 'nosuch'"},
      {"", "[all, good]", ":5:15", "'all' beside other entries"},
      {"    large_gemms: [12x0x4]\n", "[good]", ":11:18", "'12x0x4' is not a GEMM shape"},
      {"    bulk_shape: 4x4\n", "[good]", ":11:17", "'4x4' is not a GEMM shape"},
      {"    large_families: [realstic]\n", "[good]", ":11:21", "unknown input family 'realstic'"},
      {"    require: [flip]\n", "[good]", ":11:14", "'require' names 'flip', which the suite does not run"},
      {"    allowed_declines:\n      - {backend: flip, code: no-gpu, why: y}\n", "[good]", ":12:19",
       "'allowed_declines' names 'flip', which the suite does not run"},
      {"    allowed_declines:\n      - {backend: good, code: no-gpu}\n", "[good]", ":12:9", "why"},
      {"    allowed_declines:\n      - {backend: good, code: differs, why: y}\n", "[good]", ":12:31", "foreign-target"},
      {"    allowed_declines:\n      - {backend: good, reason: x, why: y}\n", "[good]", ":12:33", "names a 'code'"},
      {"    allowed_declines:\n      - {backend: good, code: foreign-target, algorithms: [ten], why: y}\n", "[good]",
       ":12:59", "library-configuration-without-rules only"},
      {"    device_independence: hots\n", "[good]", ":11:26", "unknown backend 'hots'"},
      {"    formats: [fp7]\n", "[good]", ":11:14", "unknown format 'fp7'"},
  };
  for (const Case& c : cases) {
    const InputError e = input_error_of([&] { run(suite_yaml(c.extra, c.backends)); });
    EXPECT_EQ(e.where(), file + c.where) << c.extra << c.backends;
    EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
  }
  const InputError device = input_error_of([&] { load(suite_yaml("    device: tpu\n")); });
  EXPECT_NE(std::string(device.what()).find("allowed: cpu, gpu"), std::string::npos) << device.what();
}

TEST_F(KernelConformance, AnInstructionNoProfileHasIsAnInputError) {
  write_text(dir / "T3.yaml",
             "tier: T3\nsuites:\n  - name: s\n    kind: kernel-conformance\n    backends: [good]\n"
             "    profiles: [sm80]\n    instructions: [wgmma.m64n8k16.f32.f16.f16]\n");
  const InputError e = input_error_of([&] { run_kernel_conformance(load_tier(dir / "T3.yaml").suites.at(0), available); });
  EXPECT_NE(std::string(e.what()).find("is in none of the suite's profiles"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace mmaemu
