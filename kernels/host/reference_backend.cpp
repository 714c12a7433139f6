// Backend "reference": ref::gemm itself, the last rung of the ladder. It runs everything the
// catalogue has, slowly.
#include <chrono>

#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

class ReferenceBackend final : public Backend {
 public:
  std::string name() const override { return "reference"; }
  std::string description() const override { return "the bit-exact oracle (ref::gemm), scalar C++"; }
  std::optional<std::string> declines(const ref::InstructionModel&, const GemmShape&, bool) const override {
    return std::nullopt;
  }
  RunInfo run(const GemmProblem& pr) const override {
    const auto start = std::chrono::steady_clock::now();
    const GemmShape& s = pr.shape;
    const size_t steps = ref::gemm_steps(*pr.model, s.K), S = scales_per_row(*pr.model, s);
    for (size_t t = 0; t < s.batch; ++t) {
      const size_t out = t * s.M * s.N;
      ref::gemm(*pr.model, s.M, s.N, s.K, pr.A + t * s.M * s.K, pr.B + t * s.K * s.N, pr.C + out, pr.D + out,
                pr.trace ? pr.trace + out * steps : nullptr, S ? pr.SA + t * s.M * S : nullptr,
                S ? pr.SB + t * S * s.N : nullptr);
    }
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    return {name(), ms.count()};
  }
};

}  // namespace

const Backend& reference_backend() {
  static const ReferenceBackend b;
  return b;
}

}  // namespace mmaemu::kernels
