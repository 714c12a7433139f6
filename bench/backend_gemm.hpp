// Times one emulation backend on one case. The Backend interface takes host arrays (it uploads the
// operands, runs, and reads D back), so each sample is the backend's own RunInfo::kernel_ms: CUDA
// events around its kernel alone, not the copies or the check that every output was written.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "gemm_inputs.hpp"

namespace mmaemu::bench {

class L2Flusher;

struct BackendTiming {
  std::optional<std::string> declined;  // the backend's reason, or "not built" (no samples then)
  std::vector<double> samples_ms;
};

// Warm-up runs, then `samples` timed runs, each after an L2 flush. Throws kernels::KernelError or
// GpuError when a run fails (a failure is reported as an error, never as a measurement).
BackendTiming time_backend(const std::string& backend_name, const ref::InstructionModel& model,
                           const kernels::GemmShape& shape, const HostOperands& ops, int warmup, int samples,
                           L2Flusher& flusher);

}  // namespace mmaemu::bench
