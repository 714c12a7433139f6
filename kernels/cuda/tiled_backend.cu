#include "kernels/cuda/tiled_backend.hpp"

#include <climits>
#include <utility>

#include "kernels/cuda/cuda_device.hpp"
#include "kernels/params_from_profile.hpp"

namespace mmaemu::kernels {

Declined tiled_kernel_declines(const std::string& backend, const ref::InstructionModel& model, const GemmShape& shape,
                               size_t tile_rows) {
  if (auto why = cuda_device_declines()) return why;
  if (auto why = arith_declines(model)) return prefixed(backend + ": ", std::move(*why));
  if (model.instr.c != model.instr.d)
    return decline(DeclineCode::mixed_accumulator, backend + ": C (" + std::string(ref::format_name(model.instr.c)) +
                                                       ") in another format than D (" +
                                                       std::string(ref::format_name(model.instr.d)) + ") is run by simt and host");
  const size_t steps = ref::gemm_steps(model, shape.K);
  if (shape.M > INT_MAX || shape.N > INT_MAX || shape.K > INT_MAX || shape.batch > INT_MAX ||
      steps * model.instr.k > INT_MAX || (shape.M + tile_rows - 1) / tile_rows > 65535)
    return decline(DeclineCode::grid_limit, backend + ": a dimension exceeds the kernel's grid");
  return std::nullopt;
}

RunInfo TiledCudaBackend::run(const GemmProblem& p) const {
  const ref::InstructionModel& model = *p.model;
  const arith::OpParams params = params_from_profile(model);
  const size_t steps = ref::gemm_steps(model, p.shape.K);
  RunInfo info{name(), 0};
  if (c_count(p.shape) == 0) return info;
  const int op_bits = 8 * ref::spec(model.instr.a).storage_bytes(), acc_bits = 8 * ref::spec(model.instr.d).storage_bytes();
  info.kernel_ms = run_kernel(p, params, steps, op_bits, acc_bits);
  return info;
}

}  // namespace mmaemu::kernels
