#include "bench/backend_gemm.hpp"

#include <chrono>

#include "bench/cuda_support.hpp"

namespace mmaemu::bench {

BackendTiming time_backend(const std::string& backend_name, const ref::InstructionModel& model,
                           const kernels::GemmShape& shape, const HostOperands& ops, int warmup, int samples,
                           L2Flusher& flusher, std::optional<double> max_seconds) {
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
  // Every run, warm-up or sample, with its wall time (what a budget is about).
  auto run = [&] {
    const auto start = std::chrono::steady_clock::now();
    const kernels::RunInfo info = backend->run(problem);
    t.wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++t.runs;
    return info;
  };
  auto over_budget = [&] {
    if (!max_seconds || t.runs != 1) return false;
    const double estimate = t.wall_seconds * (warmup + samples);
    if (estimate <= *max_seconds) return false;
    t.over_budget = estimate;
    return true;
  };
  for (int i = 0; i < warmup; ++i) {
    run();
    if (over_budget()) return t;
  }
  t.samples_ms.reserve(samples);
  for (int i = 0; i < samples; ++i) {
    // The backend's work runs in its own order after this; the flush only has to finish first.
    flusher.flush(nullptr);
    cuda_check(cudaDeviceSynchronize(), "L2 flush");
    const kernels::RunInfo info = run();
    if (!(info.kernel_ms > 0))
      throw GpuError("backend " + backend_name + " reported no kernel time (RunInfo::kernel_ms = " +
                     std::to_string(info.kernel_ms) + ")");
    t.samples_ms.push_back(info.kernel_ms);
    if (over_budget()) {
      t.samples_ms.clear();
      return t;
    }
  }
  return t;
}

}  // namespace mmaemu::bench
