// Suite kind "fixture-replay": replays a fixture set (recordings of a real GPU) through the reference
// and compares every output bit for bit, counted per "<instr>/<family>".
//   - name: h200-fixtures
//     kind: fixture-replay
//     fixtures: ../fixtures/h200   # the set's directory, holding manifest.yaml
//     backend: reference           # what computes D; only the reference exists so far
#pragma once
#include <filesystem>

#include "harness/core/result.hpp"
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind fixture_replay_kind();

// Replays the set whose manifest is `manifest_file`. Throws InputError for an unusable set.
SuiteResult replay_fixture_set(const std::filesystem::path& manifest_file);

}  // namespace mmaemu
