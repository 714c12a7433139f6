#include "backend_gemm.hpp"

#include "cuda_support.hpp"

namespace mmaemu::bench {

BackendTiming time_backend(const std::string& backend_name, const ref::InstructionModel& model,
                           const kernels::GemmShape& shape, const HostOperands& ops, int warmup, int samples,
                           L2Flusher& flusher) {
  BackendTiming t;
  const kernels::Backend* backend = kernels::find_backend(backend_name);
  if (!backend) {
    t.declined = "no backend named '" + backend_name + "' in this build";
    return t;
  }
  if (auto why = backend->declines(model, shape, /*wants_trace=*/false)) {
    t.declined = *why;
    return t;
  }
  std::vector<uint32_t> d(kernels::c_count(shape));
  const kernels::GemmProblem problem{&model, shape, ops.a.data(), ops.b.data(), ops.c.data(), d.data(), nullptr};
  for (int i = 0; i < warmup; ++i) backend->run(problem);
  t.samples_ms.reserve(samples);
  for (int i = 0; i < samples; ++i) {
    // The backend's work runs in its own order after this; the flush only has to finish first.
    flusher.flush(nullptr);
    cuda_check(cudaDeviceSynchronize(), "L2 flush");
    const kernels::RunInfo info = backend->run(problem);
    if (!(info.kernel_ms > 0))
      throw GpuError("backend " + backend_name + " reported no kernel time (RunInfo::kernel_ms = " +
                     std::to_string(info.kernel_ms) + ")");
    t.samples_ms.push_back(info.kernel_ms);
  }
  return t;
}

}  // namespace mmaemu::bench
