// The library GEMM model on the GPU: one thread per output, arith/library_dot.hpp (the host engine's
// code) on CUDA cores. A correctness engine like v1, not a fast one: each thread walks its whole K.
#include <algorithm>
#include <string>

#include "kernels/arith/library_dot.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/library/library_gemm.hpp"

namespace mmaemu::kernels {
namespace {

__global__ void library_gemm_kernel(arith::LibraryParams p, size_t M, size_t N, size_t K,
                                    const uint32_t* __restrict__ A, const uint32_t* __restrict__ B,
                                    const uint32_t* __restrict__ C, uint32_t* __restrict__ D) {
  const size_t total = M * N, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t m = o / N, n = o % N;
    D[o] = arith::library_element(p, A + m * K, B + n, N, K, C[o]);
  }
}

// words[r][c] of a [rows][cols] matrix from its native-width storage (or its transpose's).
__global__ void widen_kernel(const void* __restrict__ src, int bytes, bool transposed, size_t rows, size_t cols,
                             uint32_t* __restrict__ words) {
  const size_t total = rows * cols, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t r = o / cols, c = o % cols, at = transposed ? c * rows + r : o;
    words[o] = bytes == 1 ? static_cast<const uint8_t*>(src)[at]
               : bytes == 2 ? static_cast<const uint16_t*>(src)[at]
                            : static_cast<const uint32_t*>(src)[at];
  }
}

__global__ void narrow_kernel(const uint32_t* __restrict__ words, size_t rows, size_t cols, void* __restrict__ dst,
                              int bytes, bool transposed) {
  const size_t total = rows * cols, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t r = o / cols, c = o % cols, at = transposed ? c * rows + r : o;
    if (bytes == 1) static_cast<uint8_t*>(dst)[at] = static_cast<uint8_t>(words[o]);
    else if (bytes == 2) static_cast<uint16_t*>(dst)[at] = static_cast<uint16_t>(words[o]);
    else static_cast<uint32_t*>(dst)[at] = words[o];
  }
}

__global__ void find_poison_kernel(const uint32_t* __restrict__ words, size_t count, unsigned long long* first) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < count; o += stride)
    if (words[o] == 0xFFFFFFFFu) atomicMin(first, static_cast<unsigned long long>(o));
}

unsigned blocks_for(size_t items, int threads) {
  return static_cast<unsigned>(std::min<size_t>((items + threads - 1) / threads, size_t{1} << 20));
}

void run_library_kernel(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* a,
                        const uint32_t* b, const uint32_t* c, uint32_t* d) {
  const size_t outputs = call.M * call.N;
  if (outputs == 0) return;
  const int threads = 128;
  library_gemm_kernel<<<blocks_for(outputs, threads), threads>>>(p, call.M, call.N, call.K, a, b, c, d);
  cuda_check(cudaGetLastError(), "library GEMM kernel launch");
  cuda_check(cudaDeviceSynchronize(), "library GEMM kernel");
}

DeviceBuffer<uint32_t> widened(const DeviceMatrix& m, size_t rows, size_t cols, const char* what) {
  if (m.bytes != 1 && m.bytes != 2 && m.bytes != 4)
    throw KernelError(std::string("library GEMM on CUDA: ") + what + " has " + std::to_string(m.bytes) +
                      "-byte elements (1, 2 or 4)");
  DeviceBuffer<uint32_t> words(rows * cols);
  if (rows * cols)
    widen_kernel<<<blocks_for(rows * cols, 256), 256>>>(m.data, m.bytes, m.transposed, rows, cols, words.get());
  cuda_check(cudaGetLastError(), "library GEMM operand widening");
  return words;
}

}  // namespace

void library_gemm_cuda_device(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                              const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  DeviceBuffer<uint32_t> a = widened(A, call.M, call.K, "A"), b = widened(B, call.K, call.N, "B"),
                         c = widened(C, call.M, call.N, "C"), d(call.M * call.N);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_kernel(p, call, a.get(), b.get(), c.get(), d.get());
  // An output the kernel left unwritten still holds the poison, which no result is (check_written).
  DeviceBuffer<unsigned long long> first_unwritten(1);
  const unsigned long long none = ~0ull;
  cuda_check(cudaMemcpy(first_unwritten.get(), &none, sizeof none, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  if (call.M * call.N)
    find_poison_kernel<<<blocks_for(call.M * call.N, 256), 256>>>(d.get(), call.M * call.N, first_unwritten.get());
  unsigned long long at = none;
  first_unwritten.download(&at);
  if (at != none)
    throw KernelError("library GEMM on CUDA: output (" + std::to_string(at / call.N) + "," + std::to_string(at % call.N) +
                      ") left unwritten");
  if (call.M * call.N)
    narrow_kernel<<<blocks_for(call.M * call.N, 256), 256>>>(d.get(), call.M, call.N, D.data, D.bytes, D.transposed);
  cuda_check(cudaGetLastError(), "library GEMM result narrowing");
  cuda_check(cudaDeviceSynchronize(), "library GEMM result narrowing");
}

void library_gemm_cuda(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                       const uint32_t* B, const uint32_t* C, uint32_t* D) {
  const size_t outputs = call.M * call.N;
  DeviceBuffer<uint32_t> a(call.M * call.K), b(call.K * call.N), c(outputs), d(outputs);
  a.upload(A);
  b.upload(B);
  c.upload(C);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_kernel(p, call, a.get(), b.get(), c.get(), d.get());
  d.download(D);
  check_written(D, GemmShape{1, call.M, call.N, call.K}, 1, "library GEMM: output");
}

}  // namespace mmaemu::kernels
