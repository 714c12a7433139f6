// A cuBLASLt recording plan: which calls `mmaemu record --cublaslt PLAN` makes on the GPU. Groups of
// calls are written as the product of their lists, so a plan reads as a table:
//
//   plan: h200-cublaslt
//   seed: 1
//   heuristic_results: 4          # each call runs the heuristic's first N algorithms (1: its choice)
//   groups:
//     - name: bf16-split-k
//       types: ["bf16 bf16 fp32 32F"]   # A B D compute (C has D's type)
//       shapes: [16x16x32768, 256x128x4096]
//       scalars: ["1 0", "0.5 2"]       # alpha beta
//       scales: ["1 1", "0.75 3"]       # FP8 only: scale_a scale_b
//       fast_accum: [false, true]       # FP8 only
//       families: [realistic, cancellation]
//       run: true                       # false: ask the heuristic only (the resolver's table)
//       layouts: [TN, NN, NT]           # heuristic-only groups: the layouts to ask for (default TN)
//       workspaces: [0, 1048576]        # the workspace limits to ask with (0: the session's; default 0)
//       table_only: true                # heuristic-only calls into heuristic.csv, one line each
//       batches: [1, 24]                # table_only: strided batched calls of this many products
//       epilogues: [none, bias]         # table_only: with CUBLASLT_EPILOGUE_BIAS or without
//     (shape_grid: {M: [1, 16], N: [4096], K: [128, 4096]} instead of shapes: every combination)
//       configs:                        # optional, instead of the heuristic's first N: the first
//         algo: 55                      #   algorithm with this id the heuristic offers, run once per
//         split_k: [2, 3, 64]           #   split-K count and custom option listed (forced configurations)
//         custom: [0, 1]
//
// Every error names the plan file and the line and column of the offending value.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "generators/families.hpp"
#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

// Forced configurations: the heuristic's first offer of `algo`, re-run with each split-K x custom.
struct ForcedConfigs {
  int algo = -1;
  std::vector<int> split_k, custom;
};

struct PlannedCall {
  LtCall call;
  gen::Family family = gen::Family::realistic;
  uint64_t seed = 0;       // the operands' seed (generate_operands)
  std::string group;
  bool run = true;         // false: heuristic only
  bool table_only = false; // heuristic only, written to the compact table (heuristic.csv), not recording.json
  std::optional<ForcedConfigs> forced;
};

struct LtPlan {
  std::string name;
  std::filesystem::path file;
  uint64_t seed = 1;
  int heuristic_results = 1;
  std::vector<PlannedCall> calls;
};

LtPlan load_plan(const std::filesystem::path& file);

// The operands of a planned call: the generator family over the whole GEMM, deterministic in
// (family, formats, shape, seed); tf32 operands are full fp32 patterns (low bits set).
LtOperands generate_operands(const LtCall& call, gen::Family family, uint64_t seed);

}  // namespace mmaemu::lt
