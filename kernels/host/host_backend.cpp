// Backend "host": the kernels' per-element arithmetic (arith/emu_dot.hpp) in a plain CPU loop: the
// host build of simt, so that CPU-only CI runs exactly the code the GPU runs.
#include <chrono>

#include "kernels/host/scalar_outputs.hpp"
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
  Declined declines(const ref::InstructionModel& model, const GemmShape&, bool) const override {
    if (model.fma_chain) return std::nullopt;
    return arith_declines(model);
  }
  RunInfo run(const GemmProblem& pr) const override {
    const auto start = std::chrono::steady_clock::now();
    const GemmShape& s = pr.shape;
    const bool chain = pr.model->fma_chain;
    const arith::OpParams p = chain ? arith::OpParams{} : params_from_profile(*pr.model);
    for (size_t t = 0; t < s.batch; ++t)
      for (size_t m = 0; m < s.M; ++m)
        for (size_t n = 0; n < s.N; ++n) {
          if (chain)
            scalar_fma_chain_output(pr, t, m, n);
          else
            scalar_block_output(pr, p, t, m, n);
        }
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    return {name(), ms.count()};
  }
};

}  // namespace

const Backend& host_backend() {
  static const HostBackend b;
  return b;
}

}  // namespace mmaemu::kernels
