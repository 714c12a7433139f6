#include "kernels/host/scalar_outputs.hpp"

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/fma_chain.hpp"

namespace mmaemu::kernels {

void scalar_block_output(const GemmProblem& pr, const arith::OpParams& p, size_t t, size_t m, size_t n) {
  const GemmShape& s = pr.shape;
  const size_t steps = ref::gemm_steps(*pr.model, s.K), S = scales_per_row(*pr.model, s);
  const size_t o = (t * s.M + m) * s.N + n;
  const uint32_t* A = pr.A + (t * s.M + m) * s.K;
  const uint32_t* B = pr.B + t * s.K * s.N + n;
  uint32_t* trace = pr.trace ? pr.trace + o * steps : nullptr;
  const uint32_t* sa = S ? pr.SA + (t * s.M + m) * S : nullptr;
  const uint32_t* sb = S ? pr.SB + t * S * s.N + n : nullptr;
  const uint32_t d = arith::emu_gemm_element(p, A, 1, B, s.N, s.K, pr.C[o], trace, 1, sa, sb, s.N);
  pr.D[o] = d;
}

void scalar_fma_chain_output(const GemmProblem& pr, size_t t, size_t m, size_t n) {
  const GemmShape& s = pr.shape;
  const size_t steps = ref::gemm_steps(*pr.model, s.K), k = static_cast<size_t>(pr.model->instr.k);
  const size_t o = (t * s.M + m) * s.N + n;
  arith::fma_chain_element(pr.A + 2 * (t * s.M + m) * s.K, 1, pr.B + 2 * (t * s.K * s.N + n), s.N, s.K, k,
                           pr.C + 2 * o, pr.D + 2 * o, pr.trace ? pr.trace + 2 * o * steps : nullptr);
}

}  // namespace mmaemu::kernels
