// Backend "tiled": the per-element arithmetic (kernels/arith, the code the host backend runs) on CUDA
// cores, fed from shared-memory tiles with several outputs per thread and 16-byte loads from
// native-width buffers. Same bits as the reference by construction; see tiled_gemm.cuh for the kernel,
// tiled_params.cuh for the profiles compiled with constant parameters and tiled_decoded.cuh for their path
// over operands decoded once per tile.
#include <algorithm>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/native_gemm_buffers.hpp"
#include "kernels/cuda/tiled_backend.hpp"
#include "kernels/cuda/tiled_gemm.cuh"
#include "kernels/cuda/tiled_params.cuh"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

template <class Operand, class Acc, class Spec>
double run_tiled(const GemmProblem& p, const arith::OpParams& params, size_t steps) {
  NativeGemmBuffers<Operand, Acc> buf(p, steps);
  const GemmShape& s = p.shape;
  const GemmArgs<Operand, Acc> g = buf.args(p, steps);
  const dim3 block(tiled::kThreadsSide, tiled::kThreadsSide);
  const dim3 grid(static_cast<unsigned>((s.N + tiled::kTile - 1) / tiled::kTile),
                  static_cast<unsigned>((s.M + tiled::kTile - 1) / tiled::kTile),
                  static_cast<unsigned>(std::min<size_t>(s.batch, 65535)));
  EventTimer timer;
  timer.start();
  tiled::tiled_gemm<Operand, Acc, Spec><<<grid, block>>>(params, g);
  cuda_check(cudaGetLastError(), "tiled tiled_gemm launch");
  const double ms = timer.stop_ms();
  cuda_check_launch("tiled tiled_gemm");
  buf.finish(p, steps, "tiled");
  return ms;
}

// The kernel for these params: one with the params as constants where they equal a FixedParams,
// the generic one otherwise (tiled_params.cuh keeps the list).
double run_any(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits, int acc_bits) {
  return tiled::with_spec(params, op_bits, acc_bits, [&](auto op, auto acc, auto spec) {
    return run_tiled<typename decltype(op)::type, typename decltype(acc)::type, decltype(spec)>(p, params, steps);
  });
}

class V4Backend final : public TiledCudaBackend {
 public:
  std::string name() const override { return "tiled"; }
  std::string description() const override {
    return "CUDA cores, shared-memory tiles, 4x4 outputs per thread, 16-byte loads, operands decoded once "
           "per tile (Hopper 16-bit, tf32, FP8 blocks); the host backend's arithmetic, every profile it covers";
  }

  Declined declines(const ref::InstructionModel& model, const GemmShape& shape, bool /*wants_trace*/) const override {
    if (auto why = tiled_kernel_declines(name(), model, shape, tiled::kTile)) return why;
    if (tiled::kStageK % model.instr.k != 0)
      return decline(DeclineCode::k_stage, "tiled: instruction K = " + std::to_string(model.instr.k) + " does not divide its " +
                                               std::to_string(tiled::kStageK) + "-element K stage");
    return std::nullopt;
  }

  double run_kernel(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits,
                    int acc_bits) const override {
    return run_any(p, params, steps, op_bits, acc_bits);
  }
};

}  // namespace

const Backend& tiled_backend() {
  static const V4Backend backend;
  return backend;
}

}  // namespace mmaemu::kernels
