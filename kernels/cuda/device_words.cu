#include "kernels/cuda/device_words.hpp"

#include <algorithm>
#include <string>

#include "kernels/cuda/cuda_check.hpp"

namespace mmaemu::kernels {
namespace {

__global__ void widen_kernel(const void* __restrict__ src, int bytes, bool transposed, size_t rows, size_t cols,
                             uint32_t* __restrict__ words) {
  const size_t total = rows * cols, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t r = o / cols, c = o % cols, at = transposed ? c * rows + r : o;
    if (bytes == 8) {
      const uint64_t x = static_cast<const uint64_t*>(src)[at];
      words[2 * o] = static_cast<uint32_t>(x);
      words[2 * o + 1] = static_cast<uint32_t>(x >> 32);
    } else {
      words[o] = bytes == 1 ? static_cast<const uint8_t*>(src)[at]
                 : bytes == 2 ? static_cast<const uint16_t*>(src)[at]
                              : static_cast<const uint32_t*>(src)[at];
    }
  }
}

__global__ void narrow_kernel(const uint32_t* __restrict__ words, size_t rows, size_t cols, void* __restrict__ dst,
                              int bytes, bool transposed) {
  const size_t total = rows * cols, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t r = o / cols, c = o % cols, at = transposed ? c * rows + r : o;
    if (bytes == 1) static_cast<uint8_t*>(dst)[at] = static_cast<uint8_t>(words[o]);
    else if (bytes == 2) static_cast<uint16_t*>(dst)[at] = static_cast<uint16_t>(words[o]);
    else if (bytes == 4) static_cast<uint32_t*>(dst)[at] = words[o];
    else static_cast<uint64_t*>(dst)[at] = words[2 * o] | (uint64_t{words[2 * o + 1]} << 32);
  }
}

__global__ void widen_result_kernel(const void* __restrict__ src, int bytes, size_t count, uint32_t* __restrict__ words) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < count; o += stride) {
    const uint32_t x = bytes == 1   ? static_cast<const uint8_t*>(src)[o]
                       : bytes == 2 ? static_cast<const uint16_t*>(src)[o]
                                    : static_cast<const uint32_t*>(src)[o];
    const uint32_t all_ones = bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * bytes)) - 1;
    words[o] = x == all_ones ? 0xFFFFFFFFu : x;
  }
}

__global__ void find_poison_kernel(const uint32_t* __restrict__ words, size_t count, size_t words_per,
                                   unsigned long long* first) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < count; o += stride)
    if (words[o * words_per + words_per - 1] == 0xFFFFFFFFu) atomicMin(first, static_cast<unsigned long long>(o));
}

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::clamp<size_t>((items + 255) / 256, 1, size_t{1} << 20));
}

void check_width(int bytes, const char* what) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
    throw KernelError(std::string(what) + " has " + std::to_string(bytes) + "-byte elements (1, 2, 4 or 8)");
}

}  // namespace

DeviceBuffer<uint32_t> widen_on_device(const void* src, int bytes, size_t rows, size_t cols, bool transposed,
                                       const char* what) {
  check_width(bytes, what);
  DeviceBuffer<uint32_t> words(rows * cols * (bytes == 8 ? 2 : 1));
  if (rows * cols) widen_kernel<<<blocks_for(rows * cols), 256>>>(src, bytes, transposed, rows, cols, words.get());
  cuda_check(cudaGetLastError(), "widening an operand on the device");
  return words;
}

void narrow_on_device(const uint32_t* words, size_t rows, size_t cols, void* dst, int bytes, bool transposed) {
  check_width(bytes, "the result");
  if (rows * cols) narrow_kernel<<<blocks_for(rows * cols), 256>>>(words, rows, cols, dst, bytes, transposed);
  cuda_check(cudaGetLastError(), "narrowing a result on the device");
  cuda_check(cudaDeviceSynchronize(), "narrowing a result on the device");
}

void widen_result_on_device(const void* src, int bytes, size_t count, uint32_t* words) {
  if (bytes != 1 && bytes != 2 && bytes != 4)
    throw KernelError("a result of " + std::to_string(bytes) + "-byte elements (1, 2 or 4)");
  if (count) widen_result_kernel<<<blocks_for(count), 256>>>(src, bytes, count, words);
  cuda_check(cudaGetLastError(), "widening a result on the device");
  cuda_check(cudaDeviceSynchronize(), "widening a result on the device");
}

std::optional<size_t> first_unwritten_on_device(const uint32_t* words, size_t count, size_t words_per) {
  const unsigned long long none = ~0ull;
  DeviceBuffer<unsigned long long> first(1);
  cuda_check(cudaMemcpy(first.get(), &none, sizeof none, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  if (count) find_poison_kernel<<<blocks_for(count), 256>>>(words, count, words_per, first.get());
  cuda_check(cudaGetLastError(), "the poison check");
  unsigned long long at = none;
  first.download(&at);
  if (at == none) return std::nullopt;
  return static_cast<size_t>(at);
}

}  // namespace mmaemu::kernels
