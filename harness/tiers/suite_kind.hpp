// Suite kinds: what a suite of a tier file does. Each kind declares the keys it takes (a schema) and
// how it runs. The loader knows no kind by name; adding a kind (T3 kernel conformance, T4 mutants,
// ...) means writing its file and adding one line to the list in suite_kinds.cpp.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/tiers/suite_spec.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu {

struct SuiteKind {
  std::string name;         // as written after `kind:` ("fixture-replay")
  std::string description;  // one line, for messages and listings
  Schema keys;              // the kind's own keys, beside name, kind, labels, optional and known_mismatches
  // Runs the suite and returns its counts and verdict (tier, suite, labels and seconds are filled in
  // by the runner). Throws InputError for unusable input.
  std::function<SuiteResult(const SuiteSpec&)> run;
  // `mmaemu run --seed N` replaces the tier file's seed too, not only a missing one: the suite's cases
  // are samples of claims about every input (T5), so another seed is another sample of the same suite.
  // Elsewhere a tier file's seed names fixed inputs and stays.
  bool seed_replaceable = false;
};

// Every registered kind.
const std::vector<SuiteKind>& suite_kinds();

// The kind named `name`, or nullptr.
const SuiteKind* find_suite_kind(const std::string& name);

}  // namespace mmaemu
