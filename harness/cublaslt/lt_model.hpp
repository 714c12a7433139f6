// The library model (reference/library_gemm.hpp) applied to mmaemu's description of a cuBLASLt call,
// and the comparison of a library result with it: shared by the replay of recordings (T2) and the
// live parity suite (T3p).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/comparator.hpp"
#include "harness/cublaslt/lt_call.hpp"
#include "kernels/library/library_gemm.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::lt {

ref::LibraryCall library_call(const LtCall& c);

// The model's configuration for a recorded one (split-K, stage depth, algo id, custom option).
ref::LibraryAlgo library_algo(const LtAlgoConfig& config);

// D[M][N] as the model computes it for the call run with `config`: by the reference, or by the kernels'
// arithmetic on the CPU or the GPU (kernels/library: the same rules, an independent implementation).
std::vector<uint32_t> model_d(const LtCall& call, const LtAlgoConfig& config, const LtOperands& ops,
                              kernels::LibraryEngine engine = kernels::LibraryEngine::reference);

// "bf16xbf16->fp32 algo 66", "e4m3xe4m3->bf16 fast algo 62 K-tail": the comparison group of one run.
// Groups are per type combination and algorithm, and " K-tail" when K is no multiple of the 128-byte grain, the unit in which the model's rules were found (and in which a
// tier file lists what the model does not cover yet); a mismatch names its call, shape and split-K.

std::string run_group(const LtCall& call, const LtAlgoConfig& config);

// Compares the library's D with the model's, output by output; a mismatch is described by its inputs
// (row of A, column of B, C), as TestFloat prints them.
void compare_with_model(BitComparator& cmp, const LtCall& call, const LtAlgoConfig& config, const LtOperands& ops,
                        const std::vector<uint32_t>& library_d, const std::vector<uint32_t>& model);

// The refusal check: the library and the model must agree on whether the call runs.
void compare_refusal(BitComparator& cmp, const LtCall& call, bool library_refused, const std::string& library_why);

// After set_verdict_from_counts: refusal verdicts count as compared outputs, so a suite whose every
// call was refused would pass having compared no library output. Makes that an error, with the reason.
void require_library_outputs(SuiteResult& result);

}  // namespace mmaemu::lt
