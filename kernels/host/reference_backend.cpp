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
  Declined declines(const ref::InstructionModel&, const GemmShape&, bool) const override {
    return std::nullopt;
  }
  RunInfo run(const GemmProblem& pr) const override {
    const auto start = std::chrono::steady_clock::now();
    const GemmShape& s = pr.shape;
    const size_t steps = ref::gemm_steps(*pr.model, s.K), S = scales_per_row(*pr.model, s);
    const ref::Instruction& in = pr.model->instr;
    const size_t wa = ref::words_per_element(in.a), wb = ref::words_per_element(in.b),
                 wc = ref::words_per_element(in.c), wd = ref::words_per_element(in.d);  // two for fp64
    for (size_t t = 0; t < s.batch; ++t) {
      const size_t out = t * s.M * s.N;
      ref::gemm(*pr.model, s.M, s.N, s.K, pr.A + t * s.M * s.K * wa, pr.B + t * s.K * s.N * wb, pr.C + out * wc,
                pr.D + out * wd, pr.trace ? pr.trace + out * steps * wd : nullptr, S ? pr.SA + t * s.M * S : nullptr,
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
