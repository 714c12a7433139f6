// A device array that frees itself; copies and fills report CUDA's message on failure.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"

namespace mmaemu::kernels {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count) cuda_check(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)), "cudaMalloc");
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }

  T* get() const { return ptr_; }
  size_t size() const { return count_; }

  void upload(const T* host) {
    if (count_) cuda_check(cudaMemcpy(ptr_, host, count_ * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  void download(T* host) const { download(host, 0, count_); }
  // Elements [first, first + count) only.
  void download(T* host, size_t first, size_t count) const {
    if (count) cuda_check(cudaMemcpy(host, ptr_ + first, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }
  // Every byte set to `byte` (0xFF: the poison that no backend writes, see cuda_device.hpp).
  void fill_bytes(int byte) {
    if (count_) cuda_check(cudaMemset(ptr_, byte, count_ * sizeof(T)), "cudaMemset");
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

}  // namespace mmaemu::kernels
