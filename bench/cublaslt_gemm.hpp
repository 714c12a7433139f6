// Native cuBLASLt at the benchmark's shape and types, the line each emulation backend is compared with:
//   fp16, bf16 -> fp32 (CUBLAS_COMPUTE_32F); tf32 (fp32 storage, CUBLAS_COMPUTE_32F_FAST_TF32);
//   e4m3, e5m2 -> fp32 (CUBLAS_COMPUTE_32F), with fast accumulation off or on.
// D = A*B + C (alpha = beta = 1, C and D separate fp32 matrices), column-major "TN": A stored K x M
// and transposed, B stored K x N, the layout FP8 matmuls require; the 16-bit and tf32 cases use it too
// so that every format runs the same problem. cuBLASLt has no e5m2 x e5m2 matmul: that case runs
// e5m2 x e4m3 and says so (b_format).
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/gemm_inputs.hpp"

namespace mmaemu::bench {

struct NativeSetup {
  ref::FormatId format;     // the benchmark's format (A's type)
  bool fast_accum = false;  // FP8 only: CUBLASLT_MATMUL_DESC_FAST_ACCUM
  size_t workspace_bytes = size_t{32} << 20;
};

struct NativeTiming {
  std::optional<std::string> unsupported;  // set when cuBLASLt has no algorithm for the case (why)
  ref::FormatId a_format{}, b_format{};    // the types that ran
  std::string compute_type;                // "32F", "32F_FAST_TF32"
  std::string algorithm;                   // the configuration that ran (lt::LtAlgoConfig::describe())
  std::vector<double> samples_ms;
};

class L2Flusher;

// Times `samples` calls (after `warmup`), each after an L2 flush, with CUDA events around the matmul
// alone, on the realistic operands of `seed` (from `operands`, shared with the case's other rows).
// Throws GpuError on a CUDA or cuBLASLt failure at run time.
NativeTiming time_cublaslt(const NativeSetup& setup, const kernels::GemmShape& shape, OperandCache& operands,
                           uint64_t seed, int warmup, int samples, L2Flusher& flusher);

// Whether a format has a native fast-accumulation variant (the FP8 ones).
bool has_fast_accum_variant(ref::FormatId f);

}  // namespace mmaemu::bench
