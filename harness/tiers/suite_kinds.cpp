// The registry of suite kinds. One line per kind; each kind lives in its own file.
#include "harness/tiers/cublaslt_parity.hpp"
#include "harness/tiers/cublaslt_replay.hpp"
#include "harness/tiers/external_replay.hpp"
#include "harness/tiers/fixture_replay.hpp"
#include "harness/tiers/kernel_conformance.hpp"
#include "harness/tiers/native_parity.hpp"
#include "harness/tiers/property_suite.hpp"
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

const std::vector<SuiteKind>& suite_kinds() {
  static const std::vector<SuiteKind> kinds = {
      fixture_replay_kind(),
      external_replay_kind(),
      kernel_conformance_kind(),
      native_parity_kind(),
      cublaslt_replay_kind(),
      cublaslt_parity_kind(),
      property_suite_kind(),
  };
  return kinds;
}

const SuiteKind* find_suite_kind(const std::string& name) {
  for (const SuiteKind& k : suite_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace mmaemu
