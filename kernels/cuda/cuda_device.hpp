// What every GPU backend needs around its kernel: is there a device, which one, and did the kernel
// write every output (outputs are poisoned before each run).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/backend.hpp"

namespace mmaemu::kernels {

// no_gpu with no_cuda_device_reason's words when no device can be used; empty otherwise. Asked once per process.
Declined cuda_device_declines();  // code no_gpu

// Why CUDA offers no device, given the error of cudaGetDeviceCount (a cudaError_t; cudaSuccess when it
// counted none): "no NVIDIA GPU on this machine" when no NVIDIA driver is installed or the driver sees no GPU
// (CUDA says "driver version is insufficient" for a machine without any driver, which misleads), CUDA's own
// message otherwise (a driver older than the runtime, a device in use, ...). One wording for every caller.
std::string no_cuda_device_reason(int cuda_error);

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
