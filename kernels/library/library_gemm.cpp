#include "kernels/library/library_gemm.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cpu/library_lanes.hpp"
#include "kernels/params_from_profile.hpp"
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
#include "kernels/cuda/cuda_device.hpp"
#endif

namespace mmaemu::kernels {

std::string_view library_engine_name(LibraryEngine engine) {
  switch (engine) {
    case LibraryEngine::reference: return "reference";
    case LibraryEngine::host: return "host";
    case LibraryEngine::cpu: return "cpu";
    case LibraryEngine::cuda: return "cuda";
  }
  return "?";
}

std::optional<LibraryEngine> parse_library_engine(std::string_view name) {
  for (const LibraryEngine e : {LibraryEngine::reference, LibraryEngine::host, LibraryEngine::cpu, LibraryEngine::cuda})
    if (library_engine_name(e) == name) return e;
  return std::nullopt;
}

Declined library_engine_declines(LibraryEngine engine) {
  if (engine == LibraryEngine::host || engine == LibraryEngine::cpu) return std::nullopt;
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
  return cuda_device_declines();
#else
  return decline(DeclineCode::not_built, "built without CUDA");
#endif
}

arith::LibraryParams library_params(const ref::LibraryCall& call, const ref::LibraryAlgo& algo) {
  const ref::LibraryPlan plan = ref::plan_library_gemm(call, algo);
  arith::LibraryParams p;
  p.simt_fp32 = plan.instruction == nullptr;
  if (plan.instruction) p.instr = params_from_profile(*plan.instruction);
  p.main_loop = plan.instruction;
  p.tf32_rounded = plan.tf32_rounded;
  p.promotion_k = static_cast<uint32_t>(plan.promotion_k);
  p.slices = static_cast<uint32_t>(plan.slices);
  p.chunk = plan.chunk;
  p.residue_first = static_cast<uint32_t>(plan.residue_first);
  p.interleave_block = static_cast<uint32_t>(plan.interleave_block);
  if (plan.reduction.size() > arith::kMaxReductionSteps)
    throw std::invalid_argument("the kernels' library GEMM reduces at most " + std::to_string(arith::kMaxReductionSteps) +
                                " slices; this call has " + std::to_string(plan.reduction.size()));
  p.reduction_steps = static_cast<uint32_t>(plan.reduction.size());
  for (size_t i = 0; i < plan.reduction.size(); ++i) {
    const ref::ReductionStep& step = plan.reduction[i];
    p.reduction_first[i] = static_cast<uint16_t>(step.first);
    p.reduction_second[i] = step.paired() ? static_cast<uint16_t>(step.second) : arith::kAloneInStep;
  }
  p.partials_in_output_type = plan.partials_in_output_type;
  p.in_place_slices = plan.in_place_slices;
  p.beta_fma = plan.beta_fma;
  static_assert(static_cast<uint8_t>(ref::BiasEpilogue::in_place) == arith::kBiasInPlace &&
                static_cast<uint8_t>(ref::BiasEpilogue::after_output_rounding) == arith::kBiasAfterOutputRounding);
  p.bias = static_cast<uint8_t>(plan.bias);
  p.beta_zero = call.beta == 0.0f;
  p.alpha = plan.alpha;
  p.beta = call.beta;
  p.c = arith::fmt_params(kernel_format(call.c));
  p.d = arith::fmt_params(kernel_format(call.d));
  return p;
}

void library_gemm(LibraryEngine engine, const ref::LibraryCall& call, const ref::LibraryAlgo& algo, const uint32_t* A,
                  const uint32_t* B, const uint32_t* C, uint32_t* D) {
  if (engine == LibraryEngine::cuda) {
    if (const auto why = library_engine_declines(engine)) throw KernelError("library GEMM on CUDA: " + why->detail);
    library_gemm_cuda(library_params(call, algo), call, A, B, C, D);
    return;
  }
  if (engine == LibraryEngine::cpu) {
    cpu::library_gemm_lanes(library_params(call, algo), call, A, B, C, D);
    return;
  }
  const bool reference = engine == LibraryEngine::reference;
  const arith::LibraryParams p = reference ? arith::LibraryParams{} : library_params(call, algo);
  if (reference) (void)ref::plan_library_gemm(call, algo);  // a refused call throws here, not in a thread
  // Rows on every hardware thread; each output is independent.
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(call.M, 1));
  const size_t rows = (call.M + threads - 1) / threads;
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex failure_lock;
  for (size_t m0 = 0; m0 < call.M; m0 += rows) {
    pool.emplace_back([&, m0] {
      try {
        const size_t m1 = std::min(call.M, m0 + rows);
        if (reference) {
          ref::library_gemm(call, algo, A, B, C, D, m0, m1);
          return;
        }
        for (size_t m = m0; m < m1; ++m)
          for (size_t n = 0; n < call.N; ++n)
            D[m * call.N + n] = arith::library_element(p, A + m * call.K, B + n, call.N, call.K, C[m * call.N + n]);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failure_lock);
        failure = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

#if !defined(MMAEMU_KERNELS_HAVE_CUDA)
void library_gemm_cuda(const arith::LibraryParams&, const ref::LibraryCall&, const uint32_t*, const uint32_t*,
                       const uint32_t*, uint32_t*) {
  throw KernelError("library GEMM on CUDA: built without CUDA");
}
void library_gemm_cuda_device(const arith::LibraryParams&, const ref::LibraryCall&, const DeviceMatrix&,
                              const DeviceMatrix&, const DeviceMatrix&, const DeviceOutput&) {
  throw KernelError("library GEMM on CUDA: built without CUDA");
}
Declined library_cuda_tensor_cores_declines(const arith::LibraryParams&, const ref::LibraryCall&) {
  return decline(DeclineCode::not_built, "built without CUDA");
}
std::vector<double> library_gemm_cuda_resident(const ref::LibraryCall&, const ref::LibraryAlgo&, const uint32_t*,
                                               const uint32_t*, const uint32_t*, uint32_t*, int) {
  throw KernelError("library GEMM on CUDA: built without CUDA");
}
#endif

}  // namespace mmaemu::kernels
