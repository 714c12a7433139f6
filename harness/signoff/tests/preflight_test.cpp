// Preflight evaluated on injected environments against the real recording environment (the H200
// fixture manifest and cuBLASLt recordings of this repository) and against small sources written here.
#include <gtest/gtest.h>

#include <fstream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/host_info.hpp"
#include "harness/signoff/preflight.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::signoff {
namespace {
namespace fs = std::filesystem;
using mmaemu::testing::TempDir;

const fs::path kRepo = MMAEMU_SIGNOFF_REPO_ROOT;

const std::vector<std::string> kGpuPlan = {"gpu_name", "compute_capability", "sm_count", "driver", "cuda_runtime",
                                           "cublaslt_version", "compiler", "commit", "clean_worktree"};
const std::vector<std::string> kCpuPlan = {"compiler", "commit", "clean_worktree"};

std::vector<fs::path> real_sources() {
  return {kRepo / "fixtures/h200/manifest.yaml", kRepo / "fixtures/cublaslt-h200/recorded/recording.json",
          kRepo / "fixtures/cublaslt-h200/rules/recording.json"};
}

// What the H200 the fixtures were recorded on looks like, as observe_environment would spell it.
ObservedEnvironment h200_machine() {
  return {{"gpu_name", Observation::seen("NVIDIA H200")},
          {"compute_capability", Observation::seen("9.0")},
          {"sm_count", Observation::seen("132")},
          {"gpu_memory", Observation::seen("143771 MiB")},
          {"driver", Observation::seen("580.159.04")},
          {"cuda_runtime", Observation::seen("13.0")},
          {"cublaslt_version", Observation::seen("130100")},
          {"cublaslt_file", Observation::seen("/usr/local/cuda-13.0/lib64/libcublasLt.so.13")},
          {"compiler", Observation::seen("g++ 12.2.0")},
          {"cuda_compiler", Observation::seen("nvcc 13.0.88")},
          {"build_flags", Observation::seen("RelWithDebInfo: C++ [-O2 -g -DNDEBUG]")},
          {"commit", Observation::seen("4b623de0b2fb1c2a1a6c9e8f3d2e1f0a9b8c7d6e")},
          {"clean_worktree", Observation::seen("clean")}};
}

// The same machine's view from a build without CUDA.
ObservedEnvironment cpu_build() {
  ObservedEnvironment env = h200_machine();
  for (const char* c : {"gpu_name", "compute_capability", "sm_count", "gpu_memory", "driver", "cuda_runtime",
                        "cublaslt_version", "cublaslt_file", "cuda_compiler"})
    env[c] = Observation::not_available("built without CUDA");
  return env;
}

const CheckRow& row(const PreflightResult& r, const std::string& name) {
  for (const CheckRow& c : r.checks)
    if (c.name == name) return c;
  throw std::runtime_error("no row " + name);
}

int line_of(const fs::path& file, const std::string& needle) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return -1;
}

TEST(Preflight, TheRecordingMachineMatchesTheRealSources) {
  const PreflightSpec spec{real_sources(), kGpuPlan, {}, {}};
  const PreflightResult r = evaluate_preflight(spec, h200_machine());
  EXPECT_TRUE(r.passed()) << render_table(r);
  ASSERT_EQ(r.checks.size(), preflight_check_names().size());
  for (const std::string& name : kGpuPlan) {
    EXPECT_EQ(row(r, name).status, Status::pass) << name << ": " << row(r, name).reason;
    EXPECT_TRUE(row(r, name).required) << name;
  }
  // Each expectation names its sources: the manifest with the value's line, and both recordings.
  const CheckRow& driver = row(r, "driver");
  EXPECT_EQ(driver.expected, "580.159.04");
  const int line = line_of(kRepo / "fixtures/h200/manifest.yaml", "driver:");
  EXPECT_NE(driver.source.find("manifest.yaml:" + std::to_string(line) + ":11"), std::string::npos) << driver.source;
  EXPECT_NE(driver.source.find("recorded/recording.json"), std::string::npos) << driver.source;
  EXPECT_NE(driver.source.find("rules/recording.json"), std::string::npos) << driver.source;
  // The compiler's host half and its nvcc half are compared separately.
  EXPECT_EQ(row(r, "compiler").expected, "g++ 12.2.0");
  EXPECT_EQ(row(r, "cuda_compiler").expected, "nvcc 13.0.88");
  EXPECT_EQ(row(r, "cuda_compiler").status, Status::pass);
  EXPECT_EQ(row(r, "cublaslt_file").expected, "libcublasLt.so.13*");
  EXPECT_EQ(row(r, "cublaslt_file").status, Status::pass);
  // Nothing names the memory or the flags: N/A, said in the expected column, and not required here.
  EXPECT_EQ(row(r, "gpu_memory").status, Status::na);
  EXPECT_EQ(row(r, "gpu_memory").expected, "(no source names it)");
  EXPECT_EQ(row(r, "gpu_memory").seen, "143771 MiB");
  EXPECT_FALSE(row(r, "gpu_memory").required);
  EXPECT_EQ(row(r, "commit").expected, "a commit");
  EXPECT_EQ(row(r, "clean_worktree").expected, "clean");
}

TEST(Preflight, AnotherDriverFailsARequiredCheck) {
  ObservedEnvironment env = h200_machine();
  env["driver"] = Observation::seen("570.86.15");
  const PreflightResult r = evaluate_preflight({real_sources(), kGpuPlan, {}, {}}, env);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(row(r, "driver").status, Status::fail);
  EXPECT_EQ(row(r, "driver").seen, "570.86.15");
  EXPECT_EQ(row(r, "driver").expected, "580.159.04");
  EXPECT_EQ(row(r, "driver").reason, "differs from the recording environment");
  EXPECT_NE(render_table(r).find("preflight FAILED: 1 required check(s) did not pass: driver"), std::string::npos)
      << render_table(r);
}

TEST(Preflight, AFailureOfACheckNotRequiredIsReportedOnly) {
  ObservedEnvironment env = h200_machine();
  env["sm_count"] = Observation::seen("114");  // an H100 PCIe
  env["cublaslt_file"] = Observation::seen("/opt/wheels/nvidia/cublas/lib/libcublasLt.so.12");
  const PreflightResult r = evaluate_preflight({real_sources(), {"gpu_name", "driver"}, {}, {}}, env);
  EXPECT_TRUE(r.passed()) << render_table(r);
  EXPECT_EQ(row(r, "sm_count").status, Status::fail);
  EXPECT_FALSE(row(r, "sm_count").required);
  EXPECT_EQ(row(r, "cublaslt_file").status, Status::fail);
}

TEST(Preflight, NotAvailableOnARequiredCheckFails) {
  // The GPU plan on a build without CUDA: the GPU checks cannot be evaluated, and they are required.
  const PreflightResult gpu = evaluate_preflight({real_sources(), kGpuPlan, {}, {}}, cpu_build());
  EXPECT_FALSE(gpu.passed());
  EXPECT_EQ(row(gpu, "gpu_name").status, Status::na);
  EXPECT_EQ(row(gpu, "gpu_name").reason, "built without CUDA");
  EXPECT_EQ(row(gpu, "gpu_name").expected, "NVIDIA H200");  // still says what it would have expected
  // The CPU plan requires only the compiler, the commit and a clean tree.
  const PreflightResult cpu = evaluate_preflight({real_sources(), kCpuPlan, {}, {}}, cpu_build());
  EXPECT_TRUE(cpu.passed()) << render_table(cpu);
  EXPECT_EQ(row(cpu, "gpu_name").status, Status::na);
}

TEST(Preflight, AnUnobservedCheckIsNotAvailable) {
  ObservedEnvironment env = h200_machine();
  env.erase("commit");
  const PreflightResult r = evaluate_preflight({real_sources(), kCpuPlan, {}, {}}, env);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(row(r, "commit").status, Status::na);
}

TEST(Preflight, DisagreeingSourcesFailWithBothValues) {
  TempDir dir;
  write_file_atomic(dir / "a.yaml", "schema: mmaemu-fixtures/1\nrecorded:\n  driver: \"580.159.04\"\n  gpu: \"NVIDIA H200\"\n");
  write_file_atomic(dir / "b.json", R"({"provenance": {"driver": "575.51.03", "gpu": "NVIDIA H200"}})");
  const PreflightSpec spec{{dir / "a.yaml", dir / "b.json"}, {"driver", "gpu_name"}, {}, {}};
  for (const ObservedEnvironment& env : {h200_machine(), cpu_build()}) {
    const PreflightResult r = evaluate_preflight(spec, env);
    EXPECT_FALSE(r.passed());
    const CheckRow& d = row(r, "driver");
    EXPECT_EQ(d.status, Status::fail);
    EXPECT_EQ(d.reason, "the sources disagree");
    EXPECT_NE(d.expected.find("580.159.04 ("), std::string::npos) << d.expected;
    EXPECT_NE(d.expected.find("a.yaml:3:11"), std::string::npos) << d.expected;
    EXPECT_NE(d.expected.find("575.51.03 ("), std::string::npos) << d.expected;
    EXPECT_NE(d.expected.find("b.json"), std::string::npos) << d.expected;
  }
  // Where they agree, the check passes on the matching machine.
  EXPECT_EQ(row(evaluate_preflight(spec, h200_machine()), "gpu_name").status, Status::pass);
}

TEST(Preflight, FixedRulesForTheCommitAndTheTree) {
  ObservedEnvironment env = h200_machine();
  env["commit"] = Observation::seen("unknown");
  env["clean_worktree"] = Observation::seen("2 changed: ' M tiers/T2.yaml' '?? tiers/T9.yaml'");
  const PreflightResult r = evaluate_preflight({real_sources(), kCpuPlan, {}, {}}, env);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(row(r, "commit").status, Status::fail);
  EXPECT_EQ(row(r, "commit").reason, "not a commit");
  EXPECT_EQ(row(r, "clean_worktree").status, Status::fail);
  EXPECT_EQ(row(r, "clean_worktree").reason, "not clean");
}

TEST(Preflight, ThePlanMayNameWhatNoRecordingHolds) {
  TempDir dir;
  const PreflightSpec ok{real_sources(), {"gpu_memory"}, {{"gpu_memory", {"143771 MiB", "plan.yaml:7:17"}}}, {}};
  const PreflightResult r = evaluate_preflight(ok, h200_machine());
  EXPECT_TRUE(r.passed()) << render_table(r);
  EXPECT_EQ(row(r, "gpu_memory").source, "plan.yaml:7:17");
  const PreflightSpec off{real_sources(), {"gpu_memory"}, {{"gpu_memory", {"81559 MiB", "plan.yaml:7:17"}}}, {}};
  EXPECT_EQ(row(evaluate_preflight(off, h200_machine()), "gpu_memory").status, Status::fail);
  // A plan value that contradicts a recording is a disagreement of sources.
  const PreflightSpec contra{real_sources(), {"driver"}, {{"driver", {"575.51.03", "plan.yaml:8:11"}}}, {}};
  EXPECT_EQ(row(evaluate_preflight(contra, h200_machine()), "driver").reason, "the sources disagree");
}

TEST(Preflight, CompilerHalvesAreComparedApart) {
  ObservedEnvironment env = h200_machine();
  env["compiler"] = Observation::seen("clang 14.0.6");
  env["cuda_compiler"] = Observation::seen("nvcc 12.8.93");
  const PreflightResult r = evaluate_preflight({real_sources(), {"compiler", "cuda_compiler"}, {}, {}}, env);
  EXPECT_EQ(row(r, "compiler").status, Status::fail);
  EXPECT_EQ(row(r, "cuda_compiler").status, Status::fail);
  EXPECT_FALSE(r.passed());
}

TEST(Preflight, JsonFollowsItsSchema) {
  const PreflightResult r = evaluate_preflight({real_sources(), kGpuPlan, {}, {}}, cpu_build());
  const nlohmann::ordered_json j = to_json(r);
  EXPECT_EQ(j["schema"], "mmaemu-preflight/1");
  EXPECT_EQ(j["passed"], false);
  ASSERT_EQ(j["checks"].size(), preflight_check_names().size());
  const auto& first = j["checks"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : first.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "status", "seen", "expected", "source", "required", "reason"}));
  EXPECT_EQ(first["name"], "gpu_name");
  EXPECT_EQ(first["status"], "N/A");
  EXPECT_EQ(first["reason"], "built without CUDA");
  EXPECT_EQ(first["required"], true);
}

TEST(Preflight, SourcesThatCannotBeReadAreInputErrors) {
  TempDir dir;
  const auto error_of = [](const PreflightSpec& spec) -> std::string {
    try {
      evaluate_preflight(spec, {});
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of({{dir / "absent.yaml"}, {}, {}, {}}).find("absent.yaml: environment source not found"), std::string::npos);
  write_file_atomic(dir / "m.yaml", "schema: mmaemu-fixtures/1\nset: x\n");
  EXPECT_NE(error_of({{dir / "m.yaml"}, {}, {}, {}}).find("m.yaml:1:1: has no 'recorded:' mapping"), std::string::npos);
  write_file_atomic(dir / "r.json", R"({"calls": []})");
  EXPECT_NE(error_of({{dir / "r.json"}, {}, {}, {}}).find("r.json: has no 'provenance' object"), std::string::npos);
  write_file_atomic(dir / "bad.json", "{");
  EXPECT_NE(error_of({{dir / "bad.json"}, {}, {}, {}}).find("bad.json: not valid JSON"), std::string::npos);
}

// The plan section parser.
class PreflightPlan : public ::testing::Test {
 protected:
  PreflightSpec parse(const std::string& yaml) {
    write_file_atomic(plan_, yaml);
    const YAML::Node root = YAML::LoadFile(plan_.string());
    return preflight_spec_from_yaml(root["preflight"], plan_);
  }
  std::string error_of(const std::string& yaml) {
    try {
      parse(yaml);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  }
  void SetUp() override {
    write_file_atomic(dir_ / "fixtures/manifest.yaml", "recorded:\n  gpu: \"NVIDIA H200\"\n");
    write_file_atomic(dir_ / "fixtures/recording.json", R"({"provenance": {"gpu": "NVIDIA H200"}})");
  }
  TempDir dir_;
  fs::path plan_ = dir_ / "release/plan.yaml";
};

TEST_F(PreflightPlan, ReadsASection) {
  const PreflightSpec s = parse(
      "preflight:\n"
      "  environment: [../fixtures/manifest.yaml, ../fixtures/recording.json]\n"
      "  required: [gpu_name, compiler, commit, clean_worktree]\n"
      "  expect: {gpu_memory: 143771 MiB}\n"
      "  source: ..\n");
  ASSERT_EQ(s.environment.size(), 2u);
  EXPECT_EQ(s.environment[0], (dir_.path() / "fixtures/manifest.yaml").lexically_normal());
  EXPECT_EQ(s.required, (std::vector<std::string>{"gpu_name", "compiler", "commit", "clean_worktree"}));
  EXPECT_EQ(s.expect.at("gpu_memory").value, "143771 MiB");
  EXPECT_EQ(s.expect.at("gpu_memory").where, plan_.string() + ":4:24");
  EXPECT_EQ(s.source_dir, dir_.path().lexically_normal());
}

TEST_F(PreflightPlan, StrictSchema) {
  const std::string p = plan_.string();
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml]\n  required: []\n  requird: []\n")
                .find(p + ":4:3: unknown key 'requird' in preflight section (did you mean 'required'?)"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml]\n  required: [gpu_name, gpu_nam]\n")
                .find(p + ":3:24: unknown check 'gpu_nam'"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: ../fixtures/manifest.yaml\n  required: []\n")
                .find(p + ":2:16: 'environment' must be a list"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml, ../fixtures/gone.yaml]\n  required: []\n")
                .find(p + ":2:44: environment source not found at"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml]\n").find(p + ":2:3: preflight section lacks the required key 'required'"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: []\n  required: []\n").find(p + ":2:16: 'environment' lists no source"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml]\n  required: [commit, commit]\n")
                .find(p + ":3:22: check 'commit' is listed twice"),
            std::string::npos);
  EXPECT_NE(error_of("preflight:\n  environment: [../fixtures/manifest.yaml]\n  required: []\n  expect: {gpu_mem: 1}\n")
                .find(p + ":4:12: unknown check 'gpu_mem'"),
            std::string::npos);
}

// The real observation of this machine and build: what a CPU build sees without any GPU, and the
// compiler it was built with compared with the one the fixtures name.
TEST(PreflightObserved, ThisBuildOnThisMachine) {
  const ObservedEnvironment env = observe_environment(kRepo);
  ASSERT_TRUE(env.at("compiler").value);
  EXPECT_EQ(*env.at("compiler").value, host_compiler());
  ASSERT_TRUE(env.at("build_flags").value);
  EXPECT_NE(env.at("build_flags").value->find(this_build().build_type), std::string::npos);
#ifndef MMAEMU_HAVE_CUDA
  EXPECT_EQ(env.at("gpu_name").note, "built without CUDA");
  EXPECT_EQ(env.at("cublaslt_file").note, "built without CUDA");
#endif
  if (!std::getenv("MMAEMU_SOURCE_COMMIT") && fs::exists(kRepo / ".git")) {
    ASSERT_TRUE(env.at("commit").value) << env.at("commit").note;
    EXPECT_EQ(env.at("commit").value->size(), 40u);
    ASSERT_TRUE(env.at("clean_worktree").value) << env.at("clean_worktree").note;
  }
  const PreflightResult r = run_preflight({real_sources(), kCpuPlan, {}, kRepo});
  EXPECT_EQ(row(r, "compiler").expected, "g++ 12.2.0");
  EXPECT_NE(row(r, "compiler").status, Status::na);
}

}  // namespace
}  // namespace mmaemu::signoff
