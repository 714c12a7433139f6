#include "bench/backend_gemm.hpp"

#include <chrono>
#include <memory>

#include "bench/cuda_support.hpp"

namespace mmaemu::bench {

BackendTiming time_backend(const std::string& backend_name, const ref::InstructionModel& model,
                           const kernels::GemmShape& shape, const HostOperands& ops, int warmup, int samples,
                           L2Flusher& flusher, std::optional<double> max_seconds) {
  BackendTiming t;
  const kernels::Backend* backend = kernels::find_backend(backend_name);
  if (!backend) {
    t.declined = decline(DeclineCode::unknown_backend, "no backend named '" + backend_name + "' in this build");
    return t;
  }
  if (auto why = backend->declines(model, shape, /*wants_trace=*/false)) {
    t.declined = std::move(why);
    return t;
  }
  // Device words when the backend takes them (uploaded here, once), else the host arrays.
  std::vector<uint32_t> d;
  std::unique_ptr<DeviceBuffer> dev_a, dev_b, dev_c, dev_d;
  kernels::GemmProblem problem{&model, shape, ops.a.data(), ops.b.data(), ops.c.data(), nullptr, nullptr};
  if (!backend->declines_device_operands()) {
    auto on_device = [](const std::vector<uint32_t>& host) {
      auto buffer = std::make_unique<DeviceBuffer>(host.size() * sizeof(uint32_t));
      buffer->upload(host.data(), host.size() * sizeof(uint32_t));
      return buffer;
    };
    dev_a = on_device(ops.a);
    dev_b = on_device(ops.b);
    dev_c = on_device(ops.c);
    dev_d = std::make_unique<DeviceBuffer>(kernels::c_count(shape) * sizeof(uint32_t));
    problem.A = static_cast<const uint32_t*>(dev_a->get());
    problem.B = static_cast<const uint32_t*>(dev_b->get());
    problem.C = static_cast<const uint32_t*>(dev_c->get());
    problem.D = static_cast<uint32_t*>(dev_d->get());
    problem.on_device = true;
    t.operands = "device";
  } else {
    d.resize(kernels::c_count(shape));
    problem.D = d.data();
    t.operands = "host";
  }
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
