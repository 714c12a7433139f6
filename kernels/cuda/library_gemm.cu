// The library GEMM model on the GPU: one thread per output, arith/library_dot.hpp (the host engine's
// code) on CUDA cores. A correctness engine like v1, not a fast one: each thread walks its whole K.
#include <algorithm>
#include <string>

#include "kernels/arith/library_dot.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_words.hpp"
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

}  // namespace

void library_gemm_cuda_device(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                              const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  DeviceBuffer<uint32_t> a = widen_on_device(A.data, A.bytes, call.M, call.K, A.transposed, "library GEMM: A"),
                         b = widen_on_device(B.data, B.bytes, call.K, call.N, B.transposed, "library GEMM: B"),
                         c = widen_on_device(C.data, C.bytes, call.M, call.N, C.transposed, "library GEMM: C"),
                         d(call.M * call.N);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_kernel(p, call, a.get(), b.get(), c.get(), d.get());
  if (const auto at = first_unwritten_on_device(d.get(), call.M * call.N))
    throw KernelError("library GEMM on CUDA: output (" + std::to_string(*at / call.N) + "," +
                      std::to_string(*at % call.N) + ") left unwritten");
  narrow_on_device(d.get(), call.M, call.N, D.data, D.bytes, D.transposed);
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
