#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::lt {

std::optional<LtAlgoConfig> resolve(const Recording& table, const LtCall& call) {
  std::optional<LtAlgoConfig> any_beta;
  for (const RecordedCall& r : table.calls) {
    const LtCall& c = r.call;
    const bool same = c.a == call.a && c.b == call.b && c.c == call.c && c.d == call.d && c.compute == call.compute &&
                      c.M == call.M && c.N == call.N && c.K == call.K &&
                      (!call.is_fp8() || c.fast_accum == call.fast_accum);
    if (!same || r.heuristic.empty()) continue;
    if ((c.beta == 0.0f) == (call.beta == 0.0f)) return r.heuristic.front();
    if (!any_beta) any_beta = r.heuristic.front();
  }
  return any_beta;
}

}  // namespace mmaemu::lt
