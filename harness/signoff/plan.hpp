// A sign-off plan: the declarative list of what must hold before a build may be released.
//   signoff: gpu                           # the plan's name (letters, digits, '-', '_')
//   description: ...
//   preflight: {...}                       # the machine and stack against the recordings' (preflight.hpp)
//   device_code: {...}                     # optional: frozen SASS against a committed record (device_code.hpp)
//   data: {...}                            # shipped files against their manifests' sha256 (shipped_data.hpp)
//   steps:                                 # every tier, in order; each one `mmaemu run` in a child process
//     - name: T3                           # names the step's report folder (letters, digits, '-', '_')
//       tier: ../tiers/T3.yaml             # relative to the plan; any tier file `mmaemu run` takes
//       suites: [t3-host, t3-gpu]          # optional: only these suites (default: every one)
//       quick: false                       # optional: the tier's quick form
//       required: true                     # optional (default true): a required step that skips fails
//       allow_skip:                        # optional: suites that may skip, each with the reason why
//         - {suite: km-external, reason: "third-party recordings are not shipped"}
//       needs: [gpu_name, driver]          # optional: preflight checks that must PASS, or the step is refused
//       timeout_minutes: 30                # optional (default 60): then the step is killed and fails
//       jobs: 16                           # optional: a mutation tier's mutants at a time
// Schema-checked like tier files: an unknown key or step, a wrong type, a missing file are
// InputErrors at file:line:column.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/signoff/device_code.hpp"
#include "harness/signoff/preflight.hpp"
#include "harness/signoff/shipped_data.hpp"

namespace mmaemu::signoff {

struct AllowedSkip {
  std::string suite;
  std::string reason;
};

struct StepSpec {
  std::string name;
  std::filesystem::path tier_file;
  std::vector<std::string> suites;
  bool quick = false;
  bool required = true;
  std::vector<AllowedSkip> allow_skip;
  std::vector<std::string> needs;
  double timeout_seconds = 3600;
  unsigned jobs = 0;  // mutation tiers: mutants at a time (0: the tier file's)
  // Profiles the step's suites must pin by recorded hardware in this run (SuiteResult::pinned_profiles):
  // a release whose block parameters rest on an absent recording fails here, not silently.
  std::vector<std::string> require_pinned;
  std::string where;  // "file:line:column" of the entry

  const AllowedSkip* allowed_skip(const std::string& suite) const;
};

struct SignoffPlan {
  std::string name;
  std::string description;
  std::filesystem::path file;
  std::string sha256;  // of the plan's bytes: a resumed sign-off must follow the same plan
  PreflightSpec preflight;
  std::optional<DeviceCodeSpec> device_code;
  ShippedDataSpec data;
  std::vector<StepSpec> steps;
};

SignoffPlan load_plan(const std::filesystem::path& file);

}  // namespace mmaemu::signoff
