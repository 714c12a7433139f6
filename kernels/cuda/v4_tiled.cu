// Backend "v4": the per-element arithmetic (kernels/arith, the code the host backend runs) on CUDA
// cores, fed from shared-memory tiles with several outputs per thread and 16-byte loads from
// native-width buffers. Same bits as the reference by construction; see v4_gemm.cuh for the kernel,
// v4_params.cuh for the profiles compiled with constant parameters and v4_decoded.cuh for their path
// over operands decoded once per tile.
#include <algorithm>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/native_gemm_buffers.hpp"
#include "kernels/cuda/tiled_backend.hpp"
#include "kernels/cuda/v4_gemm.cuh"
#include "kernels/cuda/v4_params.cuh"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

template <class Operand, class Acc, class Spec>
double run_tiled(const GemmProblem& p, const arith::OpParams& params, size_t steps) {
  NativeGemmBuffers<Operand, Acc> buf(p, steps);
  const GemmShape& s = p.shape;
  const GemmArgs<Operand, Acc> g = buf.args(p, steps);
  const dim3 block(v4::kThreadsSide, v4::kThreadsSide);
  const dim3 grid(static_cast<unsigned>((s.N + v4::kTile - 1) / v4::kTile),
                  static_cast<unsigned>((s.M + v4::kTile - 1) / v4::kTile),
                  static_cast<unsigned>(std::min<size_t>(s.batch, 65535)));
  EventTimer timer;
  timer.start();
  v4::tiled_gemm<Operand, Acc, Spec><<<grid, block>>>(params, g);
  cuda_check(cudaGetLastError(), "v4 tiled_gemm launch");
  const double ms = timer.stop_ms();
  cuda_check_launch("v4 tiled_gemm");
  buf.finish(p, steps, "v4");
  return ms;
}

// The kernel for these params: one with the params as constants where they equal a FixedParams,
// the generic one otherwise (v4_params.cuh keeps the list).
double run_any(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits, int acc_bits) {
  return v4::with_spec(params, op_bits, acc_bits, [&](auto op, auto acc, auto spec) {
    return run_tiled<typename decltype(op)::type, typename decltype(acc)::type, decltype(spec)>(p, params, steps);
  });
}

class V4Backend final : public TiledCudaBackend {
 public:
  std::string name() const override { return "v4"; }
  std::string description() const override {
    return "CUDA cores, shared-memory tiles, 4x4 outputs per thread, 16-byte loads, operands decoded once "
           "per tile (Hopper 16-bit, tf32, FP8 blocks); the host backend's arithmetic, every profile it covers";
  }

  Declined declines(const ref::InstructionModel& model, const GemmShape& shape, bool /*wants_trace*/) const override {
    if (auto why = tiled_kernel_declines(name(), model, shape, v4::kTile)) return why;
    if (v4::kStageK % model.instr.k != 0)
      return decline(DeclineCode::k_stage, "v4: instruction K = " + std::to_string(model.instr.k) + " does not divide its " +
                                               std::to_string(v4::kStageK) + "-element K stage");
    return std::nullopt;
  }

  double run_kernel(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits,
                    int acc_bits) const override {
    return run_any(p, params, steps, op_bits, acc_bits);
  }
};

}  // namespace

const Backend& v4_backend() {
  static const V4Backend backend;
  return backend;
}

}  // namespace mmaemu::kernels
