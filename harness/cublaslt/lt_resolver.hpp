// The resolver: which algorithm configuration cuBLASLt's heuristic picks for a call, from a recording's
// table of heuristic answers (every recorded call carries the heuristic's ranked configurations). The
// table answers for the calls it holds and for nothing else: a call outside it is not guessed.
#pragma once
#include <optional>

#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu::lt {

// The heuristic's first choice recorded for a call with the same types, compute type, shape and fast
// accumulation (and, where the table has both, the same beta == 0; the heuristic may read it), or
// nullopt when the table lacks the call or recorded a refusal.
std::optional<LtAlgoConfig> resolve(const Recording& table, const LtCall& call);

}  // namespace mmaemu::lt
