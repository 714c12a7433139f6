// Preflight of a sign-off: this machine and this build against the environment the shipped recordings
// were made in. The fixture manifests (`recorded:`) and the cuBLASLt recordings (`provenance`) name the
// GPU, driver, CUDA runtime, cuBLASLt and compiler they were recorded with; preflight compares what it
// observes here with each, row by row, before any tier runs.
//
// A check that cannot be evaluated here (no GPU, a build without CUDA, nothing names an expected value)
// is N/A. The plan says which checks are required: a required check must PASS (its N/A fails
// preflight); the others are reported only.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/signoff/check_table.hpp"

namespace mmaemu::signoff {

// Every check preflight knows, in the order it reports them:
//   gpu_name compute_capability sm_count gpu_memory driver cuda_runtime cublaslt_version cublaslt_file
//   compiler cuda_compiler build_flags commit clean_worktree
const std::vector<std::string>& preflight_check_names();

// An expected value the plan itself names (for values no recording holds: gpu_memory, build_flags).
struct PlanExpectation {
  std::string value;
  std::string where;  // "plan.yaml:line:column"
};

struct PreflightSpec {
  // Fixture manifests (YAML with `recorded:`) and cuBLASLt recordings (recording.json, `provenance`).
  std::vector<std::filesystem::path> environment;
  std::vector<std::string> required;              // check names
  std::map<std::string, PlanExpectation> expect;  // by check name
  std::filesystem::path source_dir;               // where git is asked; empty: this build's source tree
};

// One observed value, or why it cannot be observed here ("built without CUDA").
struct Observation {
  std::optional<std::string> value;
  std::string note;  // without a value: why (the row's N/A reason); with one: a remark for the row

  static Observation seen(std::string v) { return {std::move(v), ""}; }
  static Observation not_available(std::string why) { return {std::nullopt, std::move(why)}; }
};
using ObservedEnvironment = std::map<std::string, Observation>;  // by check name; absent: not observed

// Facts of this build, from CMake (compile definitions of the library).
struct BuildFacts {
  std::string build_type;                // "RelWithDebInfo"
  std::string cxx_flags;                 // CMAKE_CXX_FLAGS and the build type's flags
  bool with_cuda = false;
  std::string cuda_flags;                // CMAKE_CUDA_FLAGS and the build type's
  std::vector<std::string> cuda_gencode; // MMAEMU_CUDA_GENCODE, one -gencode flag each
  std::filesystem::path source_dir;      // CMAKE_SOURCE_DIR
  std::string configured_commit;         // the commit CMake configured at ("-dirty" appended when modified)
};
const BuildFacts& this_build();

// What this machine and this build are: the GPU through the CUDA runtime (device 0), the software
// stack, this build's compiler and flags, and git in `source_dir` (empty: this_build().source_dir).
ObservedEnvironment observe_environment(const std::filesystem::path& source_dir);

struct PreflightResult {
  std::vector<CheckRow> checks;  // one per preflight_check_names(), in that order
  bool passed() const;           // every required check PASS
};

// Compares `observed` with what the spec's sources expect. Reads the environment sources: InputError
// naming the file (file:line:column for YAML) when one is missing or malformed.
PreflightResult evaluate_preflight(const PreflightSpec& spec, const ObservedEnvironment& observed);

// evaluate_preflight(spec, observe_environment(spec.source_dir)).
PreflightResult run_preflight(const PreflightSpec& spec);

// {schema: "mmaemu-preflight/1", passed, checks: [{name, status, seen, expected, source, required, reason}]}
nlohmann::ordered_json to_json(const PreflightResult& r);
std::string render_table(const PreflightResult& r);

// The plan's `preflight:` section (paths relative to the plan file):
//   environment: [../fixtures/h200/manifest.yaml, ...]   required, at least one
//   required: [gpu_name, ..., clean_worktree]             required (may be empty)
//   expect: {gpu_memory: "143771 MiB"}                    optional
//   source: ..                                            optional, where git is asked
// An unknown key or check name, a wrong type or a missing file is an InputError at file:line:column.
PreflightSpec preflight_spec_from_yaml(const YAML::Node& section, const std::filesystem::path& plan_file);

}  // namespace mmaemu::signoff
