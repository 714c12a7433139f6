// Suite kind "cublaslt-replay" (tier T2, CPU): replays a cuBLASLt recording (harness/cublaslt,
// `mmaemu record --cublaslt`) through the library model, bit for bit.
//   - name: h200-cublaslt
//     kind: cublaslt-replay
//     labels: [T2, cpu]
//     recording: ../fixtures/cublaslt-h200/recorded
//     first_row_only: true     # optional: compare only D's first row of every run (fast, for T4)
//     max_macs: 2000000        # optional: only the calls of at most this many multiply-adds
//     engine: host             # optional: reference (default), host or cuda (kernels/library; cuda
//                              #   skips without a device)
//     allowed_declines:        # optional: runs on algorithms the model has no rules for (a client's
//       - backend: model       #   recording reaches kernels no plan chose), expected and reported
//         reason: "algorithm 23 ("
//         why: ...
// Every recorded run's D must equal the model's for the configuration the library ran (its split-K);
// every call the library refused must be refused by the model, and no other. A run on an algorithm
// the model has no rules for fails the suite unless allowed_declines lists it; either way the report
// counts it under the backend "model".
// Groups: "<types> algo <id>" (see lt_model.hpp) and "refusals".
#pragma once
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind cublaslt_replay_kind();

}  // namespace mmaemu
