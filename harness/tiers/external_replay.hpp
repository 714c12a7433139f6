// Suite kind "external-replay": replays third-party recordings of real tensor cores (the Khattak &
// Mikaitis archive) through the reference.
//   - name: km-external
//     kind: external-replay
//     archive: ../../shared/external/km-tensor-core-validation.tar.xz   # relative to the tier file
//     optional: true   # when the archive is absent: skip, with the reason
#pragma once
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind external_replay_kind();

}  // namespace mmaemu
