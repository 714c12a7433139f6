#include "kernels/cuda/scratch_buffer.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "kernels/cuda/cuda_check.hpp"

namespace mmaemu::kernels::scratch {
namespace {

// One pool per device, made on first use and kept for the process (a pool holds what it was given
// back: the release threshold is "never").
cudaMemPool_t pool_of_current_device() {
  static std::mutex lock;
  static std::map<int, cudaMemPool_t> pools;
  int device = 0;
  cuda_check(cudaGetDevice(&device), "scratch memory: cudaGetDevice");
  const std::lock_guard<std::mutex> hold(lock);
  auto found = pools.find(device);
  if (found != pools.end()) return found->second;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  cuda_check(cudaMemPoolCreate(&pool, &props), "scratch memory: cudaMemPoolCreate");
  uint64_t keep_all = UINT64_MAX;
  cuda_check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all),
             "scratch memory: the pool's release threshold");
  pools.emplace(device, pool);
  return pool;
}

}  // namespace

void* allocate(size_t bytes) {
  void* ptr = nullptr;
  cuda_check(cudaMallocFromPoolAsync(&ptr, bytes, pool_of_current_device(), 0), "scratch memory: cudaMallocFromPoolAsync");
  return ptr;
}

void release(void* ptr) { cudaFreeAsync(ptr, 0); }

}  // namespace mmaemu::kernels::scratch
