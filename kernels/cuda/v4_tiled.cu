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

template <class Operand>
double run_generic(const GemmProblem& p, const arith::OpParams& params, size_t steps, int acc_bits) {
  return acc_bits == 16 ? run_tiled<Operand, uint16_t, v4::GenericParams>(p, params, steps)
                        : run_tiled<Operand, uint32_t, v4::GenericParams>(p, params, steps);
}

// The kernel for these params: one with the params as constants where they equal a FixedParams,
// the generic one otherwise.
double run_any(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits, int acc_bits) {
  using v4::same_params;
  if (same_params(params, v4::Sm90Bf16F32::params())) return run_tiled<uint16_t, uint32_t, v4::Sm90Bf16F32>(p, params, steps);
  if (same_params(params, v4::Sm90F16F32::params())) return run_tiled<uint16_t, uint32_t, v4::Sm90F16F32>(p, params, steps);
  if (same_params(params, v4::Sm90F16F16::params())) return run_tiled<uint16_t, uint16_t, v4::Sm90F16F16>(p, params, steps);
  if (same_params(params, v4::Sm90Tf32F32::params())) return run_tiled<uint32_t, uint32_t, v4::Sm90Tf32F32>(p, params, steps);
  if (same_params(params, v4::Sm90E4m3F32::params())) return run_tiled<uint8_t, uint32_t, v4::Sm90E4m3F32>(p, params, steps);
  if (same_params(params, v4::Sm90E5m2F32::params())) return run_tiled<uint8_t, uint32_t, v4::Sm90E5m2F32>(p, params, steps);
  switch (op_bits) {
    case 8: return run_generic<uint8_t>(p, params, steps, acc_bits);
    case 16: return run_generic<uint16_t>(p, params, steps, acc_bits);
    default: return run_generic<uint32_t>(p, params, steps, acc_bits);
  }
}

class V4Backend final : public TiledCudaBackend {
 public:
  std::string name() const override { return "v4"; }
  std::string description() const override {
    return "CUDA cores, shared-memory tiles, 4x4 outputs per thread, 16-byte loads, operands decoded once "
           "per tile (Hopper 16-bit, tf32, FP8 blocks); the host backend's arithmetic, every profile it covers";
  }

  std::optional<std::string> declines(const ref::InstructionModel& model, const GemmShape& shape,
                                      bool /*wants_trace*/) const override {
    if (auto why = tiled_kernel_declines(name(), model, shape, v4::kTile)) return why;
    if (v4::kStageK % model.instr.k != 0)
      return "v4: instruction K = " + std::to_string(model.instr.k) + " does not divide its " +
             std::to_string(v4::kStageK) + "-element K stage";
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
