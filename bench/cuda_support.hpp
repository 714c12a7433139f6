// The CUDA runtime pieces the benchmark needs: errors that carry CUDA's message, owned device
// allocations, event timing, an L2 flush between samples, and the device's facts.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mmaemu::bench {

// A CUDA (or cuBLASLt) call failed: never a measurement. The message names the step and CUDA's text.
class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void cuda_check(cudaError_t status, const char* what);  // throws GpuError unless cudaSuccess

// Number of CUDA devices; 0 when there is none or no driver (never throws).
int cuda_device_count();

// One cudaMalloc allocation, freed on destruction. Each allocation is its own object on purpose:
// cuBLASLt's FP8 scale pointers must each be the start of an allocation.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  void upload(const void* host, size_t bytes);

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// A pair of CUDA events around work enqueued on one stream; elapsed_ms() waits for the stop event.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream);
  void stop(cudaStream_t stream);
  double elapsed_ms();

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Evicts the previous sample's data from L2 by writing a buffer larger than it, so that every timed
// sample reads its operands from device memory, as a cold GEMM in a real workload would.
class L2Flusher {
 public:
  explicit L2Flusher(int device);
  void flush(cudaStream_t stream);  // enqueued; not part of any timed region
  size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
  unsigned char value_ = 0;
};

struct DeviceFacts {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  size_t l2_bytes = 0;
  double sm_clock_ghz = 0;  // the maximum (boost) clock the device reports
};

DeviceFacts device_facts(int device);

}  // namespace mmaemu::bench
