// Suite kind "properties" (tier T5): properties of the model on random inputs (harness/properties),
// each failure shrunk by RapidCheck to a minimal counterexample.
//   - name: t5-host
//     kind: properties
//     labels: [T5, cpu]
//     properties: [all]          # or names from the catalogue (mmaemu info lists them)
//     backends: [host]           # backend-equals-reference runs each
//     library_engines: [host]    # library-engines-equal-reference runs each (host, cuda)
//     profiles: [all]            # the arithmetic properties run per profile
//     cases: 100                 # cases per group (a property x profile, backend, format, ...)
//     cases_by_property:         # optional: another budget for some properties
//       npy-reader-rejects: 40
//     seed: 1                    # `mmaemu run --seed N` replaces it, `--cases N` replaces `cases`
//     require: [host]            # as in kernel-conformance: these backends must run, declining only
//     allowed_declines: [...]    #   what allowed_declines lists
//     device: gpu                # skip, with the reason, where no CUDA device can be used
// Groups: one per property group ("negation/sm90"), counting the cases that held. A counterexample
// is a mismatch (inputs, expected, got, in hex) whose files and replay commands are written under
// <report dir>/properties/<suite>/<group>/, beside groups.md (every group: claim, cases, outcome, why).
// An exception (a group where the property is claimed
// not to hold) must be confirmed by a counterexample, or the suite fails.
#pragma once
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind property_suite_kind();

}  // namespace mmaemu
