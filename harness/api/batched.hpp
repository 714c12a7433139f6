// PyTorch's batched products (torch.bmm, torch.baddbmm, torch.matmul of batches) as cuBLAS runs them:
// one strided batched GEMM (cublasGemmStridedBatchedEx, cublasSgemmStridedBatched) whose batches are
// independent products and whose configuration is the heuristic's answer for the batched call, not the
// single call's (reports/h100/torch-uncovered Q2: 148 such calls on an H100, none split-K; 1 batch is a
// plain GEMM). The resolver was fitted on single calls; the batched rule takes its answer without
// split-K, and says how sure that is from what it was measured against: `batched.json` beside the
// resolver (scripts/torch_batched_certainty.py), per operand type, the share of recorded batched calls
// whose logged configuration computes the same arithmetic as the rule's (ref::describe_plan).
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "harness/cublaslt/lt_call.hpp"
#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::api {

struct BatchedCertainty {
  struct Measured {
    size_t calls = 0, same_arithmetic = 0;
  };
  std::map<std::string, Measured> by_type;  // the library's A type: bf16, fp16, fp32, tf32
  std::string source;                       // where the measurement comes from, for the basis line
};

// batched.json beside `resolver_file`, read once per process; without it every batched answer has
// certainty 0 (and so is refused under strict). InputError naming the file when it is malformed.
const BatchedCertainty& batched_certainty(const std::filesystem::path& resolver_file);

// The batched call's configuration from the single call's resolution: split-K 1 (reduction scheme 0,
// no workspace), with the measured certainty of that rule for the call's type.
lt::Resolution resolve_batched(const lt::Resolution& single, const lt::LtCall& call, const BatchedCertainty& measured);

}  // namespace mmaemu::api
