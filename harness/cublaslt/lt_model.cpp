#include "harness/cublaslt/lt_model.hpp"

#include <algorithm>
#include <span>

#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"
#include "kernels/library/library_gemm.hpp"

namespace mmaemu::lt {

ref::LibraryCall library_call(const LtCall& c) {
  ref::LibraryCall l;
  l.a = c.a;
  l.b = c.b;
  l.c = c.c;
  l.d = c.d;
  l.M = c.M;
  l.N = c.N;
  l.K = c.K;
  l.alpha = c.alpha;
  l.beta = c.beta;
  l.scale_a = c.scale_a;
  l.scale_b = c.scale_b;
  l.fast_accum = c.fast_accum;
  l.bias = c.bias;
  return l;
}

ref::LibraryAlgo library_algo(const LtAlgoConfig& config) {
  ref::LibraryAlgo algo;
  algo.split_k = std::max(config.split_k, 1);
  algo.algo_id = config.algo_id;
  algo.custom = config.custom;
  algo.reduction = config.reduction;
  // "16x6": K depth x stages (cublasLtMatmulStages_t's naming). Not the split grain (128 bytes of A for
  // the wgmma kernels); it orders the K tail of tf32 slices and is the interleave of algorithm 55.
  for (const char ch : config.stages_name) {
    if (ch < '0' || ch > '9') break;
    algo.stage_k = algo.stage_k * 10 + static_cast<size_t>(ch - '0');
  }
  return algo;
}

std::vector<uint32_t> model_d(const LtCall& call, const LtAlgoConfig& config, const LtOperands& ops,
                              kernels::LibraryEngine engine) {
  // A call the library refuses, or a configuration the model declines for this call (ref::model_declines:
  // a configuration read from a file reaches here unchecked against the call), is the caller's input.
  if (const auto why = ref::library_refuses(library_call(call)))
    throw InputError("", "cuBLASLt refuses this call: " + why->detail);
  if (const auto why = ref::model_declines(library_call(call), library_algo(config))) throw InputError("", why->detail);
  std::vector<uint32_t> d(call.M * call.N);
  kernels::library_gemm(engine, library_call(call), library_algo(config), ops.a.data(), ops.b.data(), ops.c.data(),
                        d.data());
  return d;
}

std::string run_group(const LtCall& call, const LtAlgoConfig& config) {
  std::string g = std::string(ref::format_name(call.a)) + "x" + std::string(ref::format_name(call.b)) + "->" +
                  std::string(ref::format_name(call.d));
  if (call.is_fp8()) g += call.fast_accum ? " fast" : " promoted";
  g += " algo " + std::to_string(config.algo_id);
  // K not a multiple of the 128-byte grain: the kernels' K tail, a rule of its own for some algorithms.
  const size_t grain = 128 / static_cast<size_t>(ref::spec(call.a).storage_bytes());
  if (call.K % grain != 0) g += " K-tail";
  return g;
}

void compare_with_model(BitComparator& cmp, const LtCall& call, const LtAlgoConfig& config, const LtOperands& ops,
                        const std::vector<uint32_t>& library_d, const std::vector<uint32_t>& model) {
  const std::string group = run_group(call, config);
  const std::string where = call.name() + " split-K " + std::to_string(std::max(config.split_k, 1));
  const int a_bytes = storage_bytes(call.a), b_bytes = storage_bytes(call.b), c_bytes = storage_bytes(call.c);
  // Rows of thousands of values help nobody on a terminal: the first kShown of A's row and B's column
  // (the report names the call, so the rest can be regenerated).
  constexpr size_t kShown = 32;
  const size_t shown = std::min(call.K, kShown);
  const std::string more = call.K > kShown ? " ... (K = " + std::to_string(call.K) + ")" : "";
  const auto describe = [&](size_t i) {
    const size_t m = i / call.N, n = i % call.N;
    return CaseDescription{where + " m " + std::to_string(m) + " n " + std::to_string(n),
                           "a=" + hex_list(&ops.a[m * call.K], shown, a_bytes) + more +
                               " b=" + hex_list(&ops.b[n], shown, b_bytes, call.N) + more +
                               " c=" + hex_bits(ops.c[i], c_bytes)};
  };
  cmp.compare(group, std::span(library_d), std::span(model), storage_bytes(call.d), describe);
}

void compare_refusal(BitComparator& cmp, const LtCall& call, bool library_refused, const std::string& library_why) {
  const auto model_why = ref::library_refuses(library_call(call));
  GroupCount& g = cmp.group("refusals");
  // Expected: the library's verdict (1 refused, 0 ran); got: the model's.
  cmp.compare_one(g, "refusals", library_refused ? 1u : 0u, model_why ? 1u : 0u, 1, [&](size_t) {
    return CaseDescription{call.name(), "library: " + (library_refused ? library_why : std::string("runs")) +
                                            "; model: " + (model_why ? model_why->detail : std::string("runs"))};
  });
}

void require_library_outputs(SuiteResult& result) {
  const auto it = result.groups.find("refusals");
  const size_t refusals = it == result.groups.end() ? 0 : it->second.compared;
  if (result.verdict != Verdict::pass || result.compared > refusals) return;
  result.verdict = Verdict::error;
  result.reason = "no library output was compared (only " + std::to_string(refusals) + " refusal verdicts)";
}

}  // namespace mmaemu::lt
