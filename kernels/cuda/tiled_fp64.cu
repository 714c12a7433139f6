// Backend "tiled-fp64": tiled's tiles with the T-FDPA blocks as exact double sums on the fp64 pipe
// (kernels/arith/wide_block.hpp, checked bit for bit against block() on the CPU by kernels_arith_test;
// the kernel is tiled_fp64_gemm.cuh, checked on the GPU by kernels_gpu_backends_test and T3's GPU suites).
#include <algorithm>
#include <string>

#include "kernels/arith/wide_block.hpp"
#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/native_gemm_buffers.hpp"
#include "kernels/cuda/tiled_backend.hpp"
#include "kernels/cuda/tiled_params.cuh"
#include "kernels/cuda/tiled_fp64_gemm.cuh"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

template <class Tile, class Spec, class Operand, class Acc>
void launch(const GemmShape& s, const arith::OpParams& params, const GemmArgs<Operand, Acc>& g) {
  const dim3 block(Tile::kThreadsN, Tile::kThreadsM);
  const dim3 grid(static_cast<unsigned>((s.N + Tile::kN - 1) / Tile::kN), static_cast<unsigned>((s.M + Tile::kM - 1) / Tile::kM),
                  static_cast<unsigned>(std::min<size_t>(s.batch, 65535)));
  tiled_fp64::wide_gemm<Tile, Spec, Operand, Acc><<<grid, block>>>(params, g);
}

// The tile for M: one output per thread where M holds few rows (decode shapes: the outputs are all
// the parallelism there is, since each one's chain along K is sequential), several lanes per output
// for a single row, else tiled's 64 x 64.
template <class Operand, class Acc, class Spec>
double run_wide(const GemmProblem& p, const arith::OpParams& params, size_t steps) {
  NativeGemmBuffers<Operand, Acc> buf(p, steps);
  const GemmShape& s = p.shape;
  const GemmArgs<Operand, Acc> g = buf.args(p, steps);
  EventTimer timer;
  timer.start();
  if (s.M == 1)
    launch<tiled_fp64::SplitRowTile, Spec>(s, params, g);
  else if (s.M <= 32)
    launch<tiled_fp64::FewRowsTile, Spec>(s, params, g);
  else
    launch<tiled_fp64::GemmTile, Spec>(s, params, g);
  cuda_check(cudaGetLastError(), "tiled-fp64 wide_gemm launch");
  const double ms = timer.stop_ms();
  cuda_check_launch("tiled-fp64 wide_gemm");
  buf.finish(p, steps, "tiled-fp64");
  return ms;
}

class V5Backend final : public TiledCudaBackend {
 public:
  std::string name() const override { return "tiled-fp64"; }
  std::string description() const override {
    return "CUDA cores' fp64 pipe: tiled's tiles, each T-FDPA block an exact double sum of products truncated "
           "by a rounded-toward-zero add (Hopper 16-bit, tf32, FP8 and the other blocks that fit 53 bits)";
  }

  Declined declines(const ref::InstructionModel& model, const GemmShape& shape, bool /*wants_trace*/) const override {
    if (auto why = tiled_kernel_declines(name(), model, shape, tiled_fp64::GemmTile::kM)) return why;
    if (const arith::WideDecline why = arith::wide_declines(params_from_profile(model)); why != arith::WideDecline::none) {
      const DeclineCode code = why == arith::WideDecline::lowered        ? DeclineCode::lowered_instruction
                               : why == arith::WideDecline::block_scaled ? DeclineCode::block_scaled
                                                                         : DeclineCode::block_too_wide;
      return decline(code, std::string("tiled-fp64: ") + arith::wide_decline_text(why) + " (tiled runs them)");
    }
    if (model.instr.k > tiled_fp64::kMaxStepK)
      return decline(DeclineCode::k_stage, "tiled-fp64: instruction K = " + std::to_string(model.instr.k) + " is over its " +
                                               std::to_string(tiled_fp64::kMaxStepK) + "-element stage");
    return std::nullopt;
  }

  double run_kernel(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits,
                    int acc_bits) const override {
    return tiled::with_spec(params, op_bits, acc_bits, [&](auto op, auto acc, auto spec) {
      return run_wide<typename decltype(op)::type, typename decltype(acc)::type, decltype(spec)>(p, params, steps);
    });
  }
};

}  // namespace

const Backend& tiled_fp64_backend() {
  static const V5Backend backend;
  return backend;
}

}  // namespace mmaemu::kernels
