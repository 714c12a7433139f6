#include "harness/tiers/external_replay.hpp"

#include "harness/external/km_replay.hpp"

namespace mmaemu {

SuiteKind external_replay_kind() {
  return {
      .name = "external-replay",
      .description = "replays third-party recordings of real tensor cores through the reference",
      .keys = {required_key("archive", ValueType::file).described_as("third-party recordings")},
      .run = [](const SuiteSpec& spec) { return external::replay_km_archive(spec.path("archive")); },
  };
}

}  // namespace mmaemu
