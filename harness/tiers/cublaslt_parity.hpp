// Suite kind "cublaslt-parity" (tier T3p, GPU only): live cuBLASLt calls against the library model.
//   - name: t3p-cublaslt-h200
//     kind: cublaslt-parity
//     labels: [T3p, gpu]
//     gpu: NVIDIA H200              # skips, with the reason, on any other GPU (the model is this GPU's)
//     plan: ../fixtures/cublaslt-h200/plan-live.yaml   # the calls (harness/cublaslt/lt_plan.hpp)
//     resolver: ../fixtures/cublaslt-h200/recorded     # optional: a recording whose heuristic choices
//                                                      # the live heuristic must repeat
// Each planned call asks the live heuristic, runs each algorithm it offers, and compares D with the
// model for that algorithm's configuration; a call the library refuses must be refused by the model.
// With `resolver`, every call of that recording is asked again and the live first choice must equal the
// recorded one (group "resolver": one comparison per call, a disagreement is a mismatch). Group
// "refusals" counts the calls (one per call), group "executions" the cublasLtMatmul runs (each algorithm
// the heuristic offered must run).
#pragma once
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind cublaslt_parity_kind();

}  // namespace mmaemu
