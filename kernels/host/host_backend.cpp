// Backend "host": the kernels' per-element arithmetic (arith/emu_dot.hpp) in a plain CPU loop: the
// host build of v1, so that CPU-only CI runs exactly the code the GPU runs.
#include <chrono>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/fma_chain.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

class HostBackend final : public Backend {
 public:
  std::string name() const override { return "host"; }
  std::string description() const override {
    return "the GPU kernels' __host__ __device__ arithmetic, one output at a time on the CPU";
  }
  std::optional<std::string> declines(const ref::InstructionModel& model, const GemmShape&, bool) const override {
    if (model.fma_chain) return std::nullopt;
    return arith_declines(model);
  }
  RunInfo run(const GemmProblem& pr) const override {
    const auto start = std::chrono::steady_clock::now();
    if (pr.model->fma_chain) {
      run_fma_chain(pr);
      const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
      return {name(), ms.count()};
    }
    const arith::OpParams p = params_from_profile(*pr.model);
    const GemmShape& s = pr.shape;
    const size_t steps = ref::gemm_steps(*pr.model, s.K), S = scales_per_row(*pr.model, s);
    for (size_t t = 0; t < s.batch; ++t) {
      const uint32_t* A = pr.A + t * s.M * s.K;
      const uint32_t* B = pr.B + t * s.K * s.N;
      for (size_t m = 0; m < s.M; ++m)
        for (size_t n = 0; n < s.N; ++n) {
          const size_t o = (t * s.M + m) * s.N + n;
          uint32_t* trace = pr.trace ? pr.trace + o * steps : nullptr;
          const uint32_t* sa = S ? pr.SA + (t * s.M + m) * S : nullptr;
          const uint32_t* sb = S ? pr.SB + t * S * s.N + n : nullptr;
          const uint32_t d =
              arith::emu_gemm_element(p, A + m * s.K, 1, B + n, s.N, s.K, pr.C[o], trace, 1, sa, sb, s.N);
          pr.D[o] = d;
        }
    }
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    return {name(), ms.count()};
  }

 private:
  // fp64 mma: two words per element.
  static void run_fma_chain(const GemmProblem& pr) {
    const GemmShape& s = pr.shape;
    const size_t steps = ref::gemm_steps(*pr.model, s.K), k = static_cast<size_t>(pr.model->instr.k);
    for (size_t t = 0; t < s.batch; ++t)
      for (size_t m = 0; m < s.M; ++m)
        for (size_t n = 0; n < s.N; ++n) {
          const size_t o = (t * s.M + m) * s.N + n;
          arith::fma_chain_element(pr.A + 2 * (t * s.M + m) * s.K, 1, pr.B + 2 * (t * s.K * s.N + n), s.N, s.K, k,
                                   pr.C + 2 * o, pr.D + 2 * o, pr.trace ? pr.trace + 2 * o * steps : nullptr);
        }
  }
};

}  // namespace

const Backend& host_backend() {
  static const HostBackend b;
  return b;
}

}  // namespace mmaemu::kernels
