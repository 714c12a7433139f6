// What a kernel suite (kernel-conformance, native-parity) demands of its backends' coverage:
//   require:          backends that must run, and run every problem but the declines listed below
//   allowed_declines: [{backend, reason, why}]: a decline of `backend` whose message contains
//                     `reason` is expected (tc on a profile other than the GPU's), `why` says why
// A required backend that runs nothing, or declines a problem for a reason no entry allows, fails the
// suite: a backend that starts declining almost everything cannot pass by running one problem.
// Backends that are not required may decline anything; their declines are still reported.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/tiers/suite_spec.hpp"
#include "harness/tiers/tier_schema.hpp"

namespace mmaemu::tiers {

struct AllowedDecline {
  std::string backend;
  std::string reason;  // a part of the decline's message
  std::string why;
};

// Per backend: problems it ran, and its declines (message -> problems); what SuiteResult::coverage holds.
using Coverage = std::map<std::string, BackendCoverage>;

struct DeclineRules {
  std::vector<std::string> required;
  std::vector<AllowedDecline> allowed;

  // The suite's `require` and `allowed_declines`; each must name a backend the suite runs (`runs`;
  // nullptr: not known yet, as for a GPU suite on a machine without one, whose entries are still checked).
  static DeclineRules read(const SuiteSpec& spec, const std::vector<std::string>* runs);
  bool allows(const std::string& backend, const std::string& decline) const;
  // Why the coverage fails these rules, one line per backend; empty when it meets them.
  std::vector<std::string> failures(const Coverage& coverage) const;
};

KeySpec require_key();          // require: [backend, ...]
KeySpec allowed_declines_key();  // allowed_declines: [{backend, reason, why}, ...]

}  // namespace mmaemu::tiers
