// Tier files: YAML that names a tier and lists its suites.
//   tier: T2
//   description: ...
//   suites:
//     - name: h200-fixtures
//       kind: fixture-replay      # a registered suite kind (suite_kind.hpp); it declares the other keys
//       labels: [T2, cpu]
//       optional: false           # when an input is absent: skip with the reason instead of an error
//       quick: false              # a long suite the quick form (--quick) leaves out (default: true)
//       known_mismatches:         # groups that cannot match yet, with why (known_mismatches.hpp)
//         - group: H200/E4M3/fp16-out
//           reason: "..."
//       ...                       # the kind's keys; paths are relative to the tier file
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/tiers/suite_spec.hpp"

namespace mmaemu {

struct TierSpec {
  std::string tier;
  std::string description;
  std::filesystem::path file;
  std::vector<SuiteSpec> suites;
};

// Loads and schema-checks a tier file. Throws InputError at "file:line:column" for a key that is
// unknown, misspelled, missing or of the wrong type, an unknown suite kind, or a suite name used
// twice. Inputs that are absent are recorded in each suite (SuiteSpec::missing_inputs), not rejected:
// whether that is an error depends on the suite being selected and on its `optional` flag.
TierSpec load_tier(const std::filesystem::path& file);

// Throws InputError at the input's "file:line:column" when a suite that is not optional lacks an
// input. Returns the reason to skip an optional suite whose input is absent, or "" when all is there.
std::string check_inputs(const SuiteSpec& suite);

}  // namespace mmaemu
