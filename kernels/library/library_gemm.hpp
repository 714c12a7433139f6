// The library GEMM model of reference/library_gemm.hpp (cuBLASLt on an H200) computed by the kernels'
// own arithmetic (arith/library_dot.hpp): on the CPU ("host", every hardware thread; "cpu", its chains
// on the cpu backend's vector lanes, kernels/cpu/library_lanes.hpp) or on the GPU ("cuda", one thread per
// output). Same rules, taken from ref::plan_library_gemm; an independent
// implementation of the arithmetic, checked bit for bit against the recorded library outputs (T3).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/arith/library_dot.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::kernels {

// reference: ref::library_gemm itself (rows on every CPU thread); host, cpu, cuda: the kernels' arithmetic.
enum class LibraryEngine { reference, host, cpu, cuda };
std::optional<LibraryEngine> parse_library_engine(std::string_view name);  // "reference", "host", "cpu", "cuda"
std::string_view library_engine_name(LibraryEngine engine);

// Why `engine` cannot run here (cuda: not built with CUDA, or no device); empty when it can.
Declined library_engine_declines(LibraryEngine engine);

// The per-output parameters of a call and configuration. Throws std::invalid_argument for a call the
// library refuses or an instruction the kernels' arithmetic declines.
arith::LibraryParams library_params(const ref::LibraryCall& call, const ref::LibraryAlgo& algo);

// D[M][N] from A[M][K], B[K][N], C[M][N] (row-major raw bits), as ref::library_gemm computes it.
void library_gemm(LibraryEngine engine, const ref::LibraryCall& call, const ref::LibraryAlgo& algo, const uint32_t* A,
                  const uint32_t* B, const uint32_t* C, uint32_t* D);

// Why the GPU engine computes this call one thread per output instead of its slices' chains on the
// tensor cores (tc's pipelined GEMM: a wgmma kernel of consecutive slices, FP8 promotion every 128
// products included, on a GPU of the wgmma's architecture); empty when it uses the tensor cores.
Declined library_cuda_tensor_cores_declines(const arith::LibraryParams& p, const ref::LibraryCall& call);

// The GPU side (kernels/cuda/library_gemm.cu; throws KernelError when built without CUDA).
void library_gemm_cuda(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                       const uint32_t* B, const uint32_t* C, uint32_t* D);

// Operands already on the CUDA device, in their native width (1, 2 or 4 bytes per element: e4m3,
// bf16, fp32 patterns), each the library's matrix [rows][cols] stored row-major or, `transposed`, as
// the row-major storage of its transpose (a PyTorch tensor seen by the library: A' = mat2^T, ...).
struct DeviceMatrix {
  const void* data = nullptr;
  int bytes = 0;
  bool transposed = false;
};
struct DeviceOutput {
  void* data = nullptr;
  int bytes = 0;
  bool transposed = false;
};

// D [M][N] from A [M][K], B [K][N], C [M][N] without a copy to the host: the operands are widened to
// words on the device, the GPU engine's kernel runs, and D is narrowed into `D` (on the device, in
// the current device's default stream; returns when D is written). KernelError without CUDA.
void library_gemm_cuda_device(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                              const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D);

// The GPU engine as a caller whose tensors live on the device uses it: A, B and C (row-major words)
// uploaded once in their storage widths, then `runs` calls of library_gemm_cuda_device, each one's wall
// time in seconds (a call returns when D is written); D (words) from the last. KernelError without CUDA.
std::vector<double> library_gemm_cuda_resident(const ref::LibraryCall& call, const ref::LibraryAlgo& algo,
                                               const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D,
                                               int runs);

}  // namespace mmaemu::kernels
