// What a kernel suite (kernel-conformance, native-parity, properties, cublaslt-replay) demands of its
// backends' coverage:
//   require:          backends that must run, and run every problem but the declines listed below
//   allowed_declines: [{backend, code, algorithms?, why}]: a decline of `backend` with that code (a name
//                     from the decline codes' list, mmaemu/reference/decline.hpp) is expected;
//                     `algorithms` narrows library-algorithm-without-rules to those cuBLASLt
//                     algorithms; `why` says why, for people
// A required backend that runs nothing, or declines a problem with a code no entry allows, fails the
// suite: a backend that starts declining almost everything cannot pass by running one problem.
// Backends that are not required may decline anything; their declines are still reported. Only codes
// decide: a decline's detail text can be reworded without changing any verdict.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/tiers/suite_spec.hpp"
#include "harness/core/yaml_schema.hpp"
#include "mmaemu/reference/decline.hpp"

namespace mmaemu::tiers {

struct AllowedDecline {
  std::string backend;
  DeclineCode code;
  std::vector<int> algorithms;  // the library_*_without_rules codes only; empty: any algorithm
  std::string why;
};

// Per backend: problems it ran, and its declines; what SuiteResult::coverage holds.
using Coverage = std::map<std::string, BackendCoverage>;

struct DeclineRules {
  std::vector<std::string> required;
  std::vector<AllowedDecline> allowed;

  // The suite's `require` and `allowed_declines`; each must name a backend the suite runs (`runs`;
  // nullptr: not known yet, as for a GPU suite on a machine without one, whose entries are still checked).
  static DeclineRules read(const SuiteSpec& spec, const std::vector<std::string>* runs);
  bool allows(const std::string& backend, const DeclineTally& decline) const;
  // Why the coverage fails these rules, one line per backend; empty when it meets them.
  std::vector<std::string> failures(const Coverage& coverage) const;
};

KeySpec require_key();          // require: [backend, ...]
KeySpec allowed_declines_key();  // allowed_declines: [{backend, code, algorithms?, why}, ...]

}  // namespace mmaemu::tiers
