// What every GPU backend needs around its kernel: is there a device, which one, and did the kernel
// write every output (outputs are poisoned before each run).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/backend.hpp"

namespace mmaemu::kernels {

// no_gpu, "no CUDA device: <CUDA's message>", when none can be used; empty otherwise. Asked once per process.
Declined cuda_device_declines();  // code no_gpu

// Compute capability of the current device as major * 10 + minor (90 on an H200); 0 without one.
int cuda_device_sm();

// Throws KernelError "<what> (b,m,n) left unwritten" for the first output still holding the poison.
// `per_output` entries belong to each output (1 for D, steps for the trace).
// `words` per element (2 for fp64): only the last (high) word is checked, as a low word may be all ones.
void check_written(const uint32_t* out, const GemmShape& shape, size_t per_output, const char* what, size_t words = 1);

// Times a stretch of GPU work with CUDA events (the kernel alone, not the copies).
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start();
  double stop_ms();  // synchronises on the stop event; throws KernelError with CUDA's message

 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

}  // namespace mmaemu::kernels
