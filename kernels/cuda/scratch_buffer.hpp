// Device scratch a call needs only while it runs (the library model's slice partials, operands packed
// K-major), taken from mmaemu's own stream-ordered memory pool on the default stream. The pool keeps
// what a call gives back for the next call instead of returning it to the driver: cudaMalloc and
// cudaFree of tens of MiB per call (cudaFree also waits for the whole device) would be a visible part of
// a 4096^3 GEMM on a Hopper GPU, where the tensor cores take well under a millisecond. The caller's own
// default pool (PyTorch's, say) is left alone.
#pragma once
#include <cstddef>
#include <utility>

namespace mmaemu::kernels {

namespace scratch {
void* allocate(size_t bytes);  // on the default stream, from the current device's pool; KernelError on failure
void release(void* ptr);       // stream-ordered: after the work queued before it on the default stream
}  // namespace scratch

template <class T>
class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  explicit ScratchBuffer(size_t count) : ptr_(count ? static_cast<T*>(scratch::allocate(count * sizeof(T))) : nullptr) {}
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  ScratchBuffer(ScratchBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
  ScratchBuffer& operator=(ScratchBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    return *this;
  }
  ~ScratchBuffer() {
    if (ptr_) scratch::release(ptr_);
  }
  T* get() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
};

}  // namespace mmaemu::kernels
