// Times one emulation backend on one case. Each sample is the backend's own RunInfo::kernel_ms: CUDA
// events around its kernel alone, not the copies or the check that every output was written. A backend
// that takes device operands (Backend::declines_device_operands empty) gets them uploaded once per case
// (GemmProblem::on_device), so a case is limited by the GPU's memory, not by copies through the host;
// any other gets host arrays and uploads and reads back per run.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bench/gemm_inputs.hpp"

namespace mmaemu::bench {

class L2Flusher;

struct BackendTiming {
  Declined declined;  // the backend's reason, or unknown-backend (no samples then)
  std::optional<double> over_budget;    // the estimate (s) of the whole case that exceeded the budget
  std::vector<double> samples_ms;
  double wall_seconds = 0;              // wall time of every run done (copies and checks included)
  int runs = 0;                         // how many runs that was
  std::string operands;                 // "device" (uploaded once) or "host" (per run); empty if declined
};

// Warm-up runs, then `samples` timed runs, each after an L2 flush. With `max_seconds`, the first run's
// wall time times (warmup + samples) estimates the case; over the budget, the case stops there
// (over_budget, no samples). Throws kernels::KernelError or GpuError when a run fails (a failure is
// reported as an error, never as a measurement).
BackendTiming time_backend(const std::string& backend_name, const ref::InstructionModel& model,
                           const kernels::GemmShape& shape, const HostOperands& ops, int warmup, int samples,
                           L2Flusher& flusher, std::optional<double> max_seconds = std::nullopt);

}  // namespace mmaemu::bench
