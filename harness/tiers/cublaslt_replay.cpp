#include "cublaslt_replay.hpp"

#include "../core/comparator.hpp"
#include "lt_model.hpp"
#include "lt_recording.hpp"

namespace mmaemu {
namespace {

SuiteResult run_cublaslt_replay(const SuiteSpec& spec) {
  const lt::Recording rec = lt::read_recording(spec.path("recording"));
  SuiteResult result;
  BitComparator cmp(result);
  for (const lt::RecordedCall& c : rec.calls) {
    if (c.operands_sha256.empty()) continue;  // a heuristic-only entry (the resolver's table)
    lt::compare_refusal(cmp, c.call, c.heuristic_rejected.has_value(), c.heuristic_rejected.value_or(""));
    if (c.runs.empty()) continue;
    const lt::LtOperands ops = lt::operands_of(rec, c);
    for (const lt::RecordedRun& run : c.runs) {
      if (run.rejected) continue;  // refused at execution after the heuristic offered it: nothing to compare
      const auto library_d = lt::read_d(rec.dir / run.d_file, c.call);
      lt::compare_with_model(cmp, c.call, run.config, ops, library_d,
                             lt::model_d(c.call, run.config, ops));
    }
  }
  set_verdict_from_counts(result);
  return result;
}

}  // namespace

SuiteKind cublaslt_replay_kind() {
  return {
      .name = "cublaslt-replay",
      .description = "replays cuBLASLt matmuls recorded on a real GPU through the library model, bit for bit",
      .keys = {required_key("recording", ValueType::directory)
                   .described_as("cuBLASLt recording")
                   .containing("recording.json")},
      .run = run_cublaslt_replay,
  };
}

}  // namespace mmaemu
