#include "harness/tiers/cublaslt_replay.hpp"

#include <cstdint>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"
#include "kernels/library/library_gemm.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu {
namespace {

SuiteResult run_cublaslt_replay(const SuiteSpec& spec) {
  const lt::Recording rec = lt::read_recording(spec.path("recording"));
  const bool first_row_only = spec.has("first_row_only") && spec.values.at("first_row_only").flag;
  const uint64_t max_macs = spec.has("max_macs") ? spec.values.at("max_macs").number : UINT64_MAX;
  kernels::LibraryEngine engine = kernels::LibraryEngine::reference;
  if (spec.has("engine")) {
    const auto& v = spec.values.at("engine");
    const auto e = kernels::parse_library_engine(v.text);
    if (!e) throw InputError(v.where, "unknown engine '" + v.text + "' (reference, host, cuda)");
    engine = *e;
  }
  SuiteResult result;
  if (engine == kernels::LibraryEngine::cuda) {
    if (const auto why = kernels::library_engine_declines(engine)) {
      result.verdict = Verdict::skip;
      result.reason = *why;
      return result;
    }
  }
  BitComparator cmp(result);
  for (const lt::RecordedCall& c : rec.calls) {
    if (c.operands_sha256.empty()) continue;  // a heuristic-only entry (the resolver's table)
    if (c.call.M * c.call.N * c.call.K > max_macs) continue;
    lt::compare_refusal(cmp, c.call, c.heuristic_rejected.has_value(), c.heuristic_rejected.value_or(""));
    if (c.runs.empty()) continue;
    lt::LtOperands ops = lt::operands_of(rec, c);
    lt::LtCall call = c.call;
    if (first_row_only) {  // row 0 of A and C, so D's row 0: every call and configuration, fewer outputs
      call.M = 1;
      ops.a.resize(call.K);
      ops.c.resize(call.N);
    }
    for (const lt::RecordedRun& run : c.runs) {
      if (run.rejected) continue;  // refused at execution after the heuristic offered it: nothing to compare
      auto library_d = lt::read_d(rec.dir / run.d_file, c.call);
      library_d.resize(call.M * call.N);
      lt::compare_with_model(cmp, call, run.config, ops, library_d, lt::model_d(call, run.config, ops, engine));
    }
  }
  set_verdict_from_counts(result);
  lt::require_library_outputs(result);
  return result;
}

}  // namespace

SuiteKind cublaslt_replay_kind() {
  return {
      .name = "cublaslt-replay",
      .description = "replays cuBLASLt matmuls recorded on a real GPU through the library model, bit for bit",
      .keys = {required_key("recording", ValueType::directory)
                   .described_as("cuBLASLt recording")
                   .containing("recording.json"),
               // Only D's first row of every run: all calls and configurations in seconds (for T4).
               optional_key("first_row_only", ValueType::boolean),
               // Only the calls of at most this many multiply-adds (M * N * K).
               optional_key("max_macs", ValueType::integer),
               // Who computes the model: reference (default), or the kernels' arithmetic on host / cuda.
               optional_key("engine", ValueType::string)},
      .run = run_cublaslt_replay,
  };
}

}  // namespace mmaemu
