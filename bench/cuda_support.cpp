#include "bench/cuda_support.hpp"

#include <algorithm>
#include <utility>

namespace mmaemu::bench {

void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw GpuError(std::string(what) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" status for later calls
    return 0;
  }
  return n;
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  cuda_check(cudaMalloc(&ptr_, std::max<size_t>(bytes, 1)), "cudaMalloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::upload(const void* host, size_t bytes) {
  if (bytes > bytes_) throw GpuError("DeviceBuffer::upload: " + std::to_string(bytes) + " bytes into " +
                                     std::to_string(bytes_));
  cuda_check(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (host to device)");
}

EventTimer::EventTimer() {
  cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::start(cudaStream_t stream) { cuda_check(cudaEventRecord(start_, stream), "cudaEventRecord"); }
void EventTimer::stop(cudaStream_t stream) { cuda_check(cudaEventRecord(stop_, stream), "cudaEventRecord"); }

double EventTimer::elapsed_ms() {
  cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return ms;
}

namespace {
int device_attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  cuda_check(cudaDeviceGetAttribute(&v, attr, device), "cudaDeviceGetAttribute");
  return v;
}
}  // namespace

L2Flusher::L2Flusher(int device) {
  // Twice the L2 (and at least 256 MiB, in case a device under-reports it).
  const size_t l2 = static_cast<size_t>(device_attribute(cudaDevAttrL2CacheSize, device));
  buffer_ = DeviceBuffer(std::max<size_t>(2 * l2, size_t{256} << 20));
}

void L2Flusher::flush(cudaStream_t stream) {
  // A different value each time, so no layer can skip the write as a repeat.
  cuda_check(cudaMemsetAsync(buffer_.get(), ++value_, buffer_.bytes(), stream), "cudaMemsetAsync (L2 flush)");
}

DeviceFacts device_facts(int device) {
  DeviceFacts f;
  f.index = device;
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  f.sm_clock_ghz = device_attribute(cudaDevAttrClockRate, device) / 1e6;  // kHz -> GHz
  return f;
}

}  // namespace mmaemu::bench
