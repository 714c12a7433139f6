// The kinds of PyTorch call whose configuration the resolver was not fitted on, and how sure an answer
// for them is. The resolver learned single calls without an epilogue; torch also makes:
// - batched products (torch.bmm, baddbmm, matmul of batches): one strided batched GEMM
//   (cublasGemmStridedBatchedEx, cublasSgemmStridedBatched) of independent products whose configuration
//   is the heuristic's answer for the batched call, never split-K (reports/h100/torch-uncovered Q2: 148
//   calls on an H100). Where the resolver has batched trees (fitted on the heuristic's answers for
//   batched calls, with the batch count a feature) their answer and certainty stand; otherwise the rule:
//   the single call's answer without split-K, its certainty the measured one alone.
// - bias calls on cuBLASLt's EPILOGUE_BIAS (beta 0, 1 MiB workspace limit): the rule takes the resolver's
//   answer for the call without the epilogue; its certainty is the lower of the resolver's and the
//   measured one. With M = 1 (one output feature) the heuristic picks its GEMV kernel (algorithm 13)
//   instead, which the model declines. Measured on the heuristic's own answers with and without the
//   epilogue for the same calls (scripts/cublaslt_call_kinds.py): equal for every M > 1.
// Measured: `call-kinds.json` beside the resolver (scripts/torch_fixture/fresh_replay.py configs), per kind
// and operand type, among recorded calls whose rule answer the model computes, how many logged a
// configuration of the same arithmetic (ref::describe_plan); the certainty is (agreeing + 1) / (calls + 2).
// A kind or type not measured has certainty 0: strict refuses it.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "harness/cublaslt/lt_call.hpp"
#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::api {

struct CallKindAgreement {
  size_t calls = 0, same_arithmetic = 0;
};

struct MeasuredCallKinds {
  // kind ("batched", "bias") -> the library's A type (bf16, fp16, fp32, tf32, e4m3) -> agreement
  std::map<std::string, std::map<std::string, CallKindAgreement>> kinds;
  std::string source;  // where the measurement comes from, for the basis line
  std::map<std::string, std::string> sources;  // a kind measured elsewhere: kind -> its source
};

// A call kinds' measurement file (schema mmaemu-cublaslt-call-kinds/1); InputError naming the file when it
// is unreadable or malformed.
MeasuredCallKinds read_call_kinds(const std::filesystem::path& file);

// call-kinds.json beside `resolver_file` (read_call_kinds), read once per process; absent: nothing measured.
const MeasuredCallKinds& measured_call_kinds(const std::filesystem::path& resolver_file);

// The resolution for a call of a kind above, from the resolver's answer for the call (unchanged for a
// plain call).
lt::Resolution resolve_call_kind(const lt::Resolution& plain, const lt::LtCall& call, const MeasuredCallKinds& measured);

}  // namespace mmaemu::api
