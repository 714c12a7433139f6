// Library calls on operands held in memory: a matmul as a library profile's model computes it
// (`mmaemu gemm --library`), a PyTorch call described as the library sees it, and the configuration
// the profile's heuristic picks (`mmaemu resolve`). Shared by the command line and Python.
#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "harness/api/compute.hpp"
#include "harness/api/library_call.hpp"
#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::api {

struct LibraryRequest {
  LibraryCallOptions call;  // profile, types, scalars, layout, workspace limit, resolver
  // The library's view: A [M, K], B [K, N], C [M, N] (C in the D type).
  Operand a, b, c;
  std::optional<lt::LtAlgoConfig> config;  // nullopt: `auto`, the configuration the resolver picks
  std::string engine = "reference";        // reference, host or cuda (kernels::LibraryEngine)
};

// D [M, N]. InputError when the library refuses the call, the resolver finds no configuration, or
// the model has no rules for the one it picks.
NpyArray library_gemm(const LibraryRequest& request);

// A PyTorch call (request.call.torch_op: matmul, addmm, linear, scaled_mm) in torch's row-major view:
// a = mat1 [m, k], b = mat2 [k, n], c = addmm's input [m, n] (others: zeros), types and scale
// factors torch's (mat1's, mat2's). Described as cuBLASLt sees it (describe_torch_call: A = mat2^T,
// B = mat1^T, M = n, N = m), computed by library_gemm and returned as torch's D [m, n].
// With M, N or K = 0 torch calls no library (aten's mm and addmm): torch_gemm returns an empty D, or
// for K = 0 zeros (addmm: beta * input as at::mul computes it), and resolve() says so.
NpyArray torch_gemm(const LibraryRequest& request);
bool torch_calls_no_library(size_t m, size_t n, size_t k);

// library_gemm or torch_gemm (as request.call.torch_op says) on the GPU engine with the operands on
// the device (matrices, C order): no copy to the host. `d` receives D ([M, N], or torch's [m, n]) in D's width.
// InputError as the host forms give; KernelError without a usable CUDA device.
void library_gemm_on_device(const LibraryCallOptions& call, const std::optional<lt::LtAlgoConfig>& config,
                            const DeviceArray& a, const DeviceArray& b, const DeviceArray& c, const DeviceArray& d);

// The JSON `mmaemu resolve` prints: the call as the library sees it, and the configuration the
// resolver picks (or why the call is refused) and whether the library model computes it.
nlohmann::json resolve(const LibraryCallOptions& call, size_t m, size_t n, size_t k);

// What the library model computes for the call under `config` (ref::describe_plan: equal lines, equal
// bits), or why it declines: {"arithmetic": ...} or {"decline": code, "refused": why}.
nlohmann::json arithmetic(const LibraryCallOptions& call, size_t m, size_t n, size_t k, const lt::LtAlgoConfig& config);

}  // namespace mmaemu::api
