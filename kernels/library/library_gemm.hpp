// The library GEMM model of reference/library_gemm.hpp (cuBLASLt on an H200) computed by the kernels'
// own arithmetic (arith/library_dot.hpp): on the CPU ("host", every hardware thread) or on the GPU
// ("cuda", one thread per output). Same rules, taken from ref::plan_library_gemm; an independent
// implementation of the arithmetic, checked bit for bit against the recorded library outputs (T3).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kernels/arith/library_dot.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::kernels {

// reference: ref::library_gemm itself (rows on every CPU thread); host, cuda: the kernels' arithmetic.
enum class LibraryEngine { reference, host, cuda };
std::optional<LibraryEngine> parse_library_engine(std::string_view name);  // "reference", "host", "cuda"
std::string_view library_engine_name(LibraryEngine engine);

// Why `engine` cannot run here (cuda: not built with CUDA, or no device); empty when it can.
std::optional<std::string> library_engine_declines(LibraryEngine engine);

// The per-output parameters of a call and configuration. Throws std::invalid_argument for a call the
// library refuses or an instruction the kernels' arithmetic declines.
arith::LibraryParams library_params(const ref::LibraryCall& call, const ref::LibraryAlgo& algo);

// D[M][N] from A[M][K], B[K][N], C[M][N] (row-major raw bits), as ref::library_gemm computes it.
void library_gemm(LibraryEngine engine, const ref::LibraryCall& call, const ref::LibraryAlgo& algo, const uint32_t* A,
                  const uint32_t* B, const uint32_t* C, uint32_t* D);

// The GPU side (kernels/cuda/library_gemm.cu; throws KernelError when built without CUDA).
void library_gemm_cuda(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                       const uint32_t* B, const uint32_t* C, uint32_t* D);

}  // namespace mmaemu::kernels
