#include "harness/tiers/tier_file_kind.hpp"

#include <array>
#include <utility>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu {
namespace {

// The key that tells each kind apart; the first found wins (no shipped file has two).
constexpr std::array<std::pair<const char*, TierFileKind>, 5> kDistinctiveKeys{{
    {"suites", TierFileKind::conformance},
    {"catalogue", TierFileKind::mutation},
    {"reference", TierFileKind::throughput},
    {"harness", TierFileKind::throughput},
    {"gemm", TierFileKind::throughput},
}};

}  // namespace

const char* tier_file_kind_name(TierFileKind kind) {
  switch (kind) {
    case TierFileKind::conformance: return "conformance";
    case TierFileKind::mutation: return "mutation";
    case TierFileKind::throughput: return "throughput";
  }
  return "?";
}

TierFileKind classify_tier_file(const std::filesystem::path& file) {
  const YAML::Node root = load_yaml_file(file);
  for (const auto& [key, kind] : kDistinctiveKeys)
    if (root[key]) return kind;
  throw InputError(where(file.string(), root),
                   "not a tier file: it needs 'suites' (a conformance tier), 'catalogue' (a mutation tier) "
                   "or 'reference', 'harness', 'gemm' (a throughput tier)");
}

}  // namespace mmaemu
