// What a tier file is for, read off its top-level keys, so that `mmaemu run` takes any file under
// tiers/ and does what its tier is for: a conformance tier (T2, T3, T3p, T5) lists `suites` to
// compare, a mutation tier (T4) names a `catalogue` whose mutants its tests must kill, a throughput
// tier (T6) has benchmark sections (`reference`, `harness`, `gemm`). The keys are listed here once.
#pragma once
#include <filesystem>
#include <string>

namespace mmaemu {

enum class TierFileKind { conformance, mutation, throughput };

const char* tier_file_kind_name(TierFileKind kind);  // "conformance", "mutation", "throughput"

// Reads the file's top level. Throws InputError naming the file (and line) when it cannot be read,
// is not YAML, or has none of the keys above (the message lists them).
TierFileKind classify_tier_file(const std::filesystem::path& file);

}  // namespace mmaemu
