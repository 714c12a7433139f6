// One cuBLASLt matmul call as mmaemu describes it, independent of CUDA: the types, the shape, the
// scalars and the options that decide its bits, plus the algorithm configuration the library ran.
//
//   D = alpha * scale_a * scale_b * (A x B) + beta * C        (scale_a, scale_b: FP8 only)
//
// Layout (the only one recorded; FP8 on Hopper requires it): column-major "TN". A is stored K x M
// (lda = K) and transposed by the op, B is stored K x N (ldb = K), C and D are M x N (ldc = ldd = M).
// In mmaemu's row-major contract that is A[M][K] (the same bytes), B[K][N] stored as its transpose
// B^T[N][K], and C, D stored as C^T[N][M], D^T[N][M]; to_library_layout/from_library_layout convert.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::lt {

enum class ComputeType : uint8_t {
  f32,            // CUBLAS_COMPUTE_32F
  f32_fast_tf32,  // CUBLAS_COMPUTE_32F_FAST_TF32: fp32 storage, tf32 tensor cores
};
std::string_view compute_name(ComputeType c);          // "32F", "32F_FAST_TF32"
std::optional<ComputeType> parse_compute(std::string_view s);

// How the library sees the operands (column-major): whether op(A) and op(B) transpose them. TN (A
// stored K x M and transposed, B stored K x N) is the layout of every executed call and of the model;
// NN and NT are the layouts a row-major framework's calls reach the library in, asked of the
// heuristic (its choice may depend on them).
enum class Layout : uint8_t { tn, nn, nt };
std::string_view layout_name(Layout l);  // "TN", "NN", "NT"
std::optional<Layout> parse_layout(std::string_view s);

struct LtCall {
  ref::FormatId a = ref::FormatId::bf16, b = ref::FormatId::bf16;  // tf32 calls use fp32 storage: a = b = tf32
  ref::FormatId c = ref::FormatId::fp32, d = ref::FormatId::fp32;  // C and D types (equal in every call here)
  ComputeType compute = ComputeType::f32;
  size_t M = 0, N = 0, K = 0;
  float alpha = 1.0f, beta = 0.0f;
  float scale_a = 1.0f, scale_b = 1.0f;  // FP8 only (device scalars)
  bool fast_accum = false;               // FP8 only: CUBLASLT_MATMUL_DESC_FAST_ACCUM
  Layout layout = Layout::tn;
  // The workspace the heuristic may plan for (CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES); 0: the
  // recording session's whole workspace.
  size_t max_workspace = 0;
  // CUBLASLT_EPILOGUE_BIAS: C is the bias vector broadcast along D's rows, and beta is 1 here (the
  // library's own beta is 0; ref::LibraryCall::bias).
  bool bias = false;
  // Strided batched (cublasGemmStridedBatchedEx, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT): this many
  // independent products of M x N x K; the configuration is the batched call's own.
  size_t batch = 1;

  bool is_fp8() const;
  std::string name() const;  // "bf16xbf16->fp32 32F 16x16x32768 a=1 b=0", for tables and logs
};

// The algorithm configuration cuBLASLt reports for a cublasLtMatmulAlgo_t (CUBLASLT_ALGO_CONFIG_*).
struct LtAlgoConfig {
  int algo_id = -1;
  int tile = 0, stages = 0, split_k = 1, reduction = 0, swizzle = 0, custom = 0, inner_shape = 0, cluster = 0;
  size_t workspace = 0;  // bytes the heuristic said this algorithm needs
  // The enumerators' names in the cuBLASLt header the recorder was built with ("128x128", "64x4":
  // K depth x stages), so that a CPU-only build reads them from the recording.
  std::string tile_name, stages_name;
  std::string describe() const;  // "algo 66 tile 128x128 stages 64x4 split-K 3 reduction 2 ..."
  bool operator==(const LtAlgoConfig&) const = default;
};

nlohmann::json to_json(const LtCall& c);
LtCall call_from_json(const nlohmann::json& j, const std::string& where);  // throws InputError at `where`
nlohmann::json to_json(const LtAlgoConfig& a);
LtAlgoConfig algo_from_json(const nlohmann::json& j, const std::string& where);
// `mmaemu gemm --library ... --algo FILE`: one configuration as a recording writes it (a JSON object as
// in a recording's "config"). Throws InputError naming the file when it cannot be read, is not JSON or
// is not a configuration, or names an algorithm the library model has no rules for (ref::model_declines).
LtAlgoConfig read_algo_config(const std::filesystem::path& file);

// Operands in mmaemu's row-major contract (raw bits widened to 32): A[M][K], B[K][N], C[M][N].
struct LtOperands {
  std::vector<uint32_t> a, b, c;
};

// Column-major library layout <-> row-major contract, for B (K x N) and for C/D (M x N).
std::vector<uint32_t> transpose(const std::vector<uint32_t>& rows_by_cols, size_t rows, size_t cols);

}  // namespace mmaemu::lt
