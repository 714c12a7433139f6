// The registry of suite kinds. One line per kind; each kind lives in its own file.
#include "cublaslt_parity.hpp"
#include "cublaslt_replay.hpp"
#include "external_replay.hpp"
#include "fixture_replay.hpp"
#include "kernel_conformance.hpp"
#include "native_parity.hpp"
#include "property_suite.hpp"
#include "suite_kind.hpp"

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
