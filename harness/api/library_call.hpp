// A library call as the command line and Python describe it, shared by `mmaemu gemm --library`, `mmaemu
// resolve` and the Python package: the profile, the types, the scalars, the layout the library sees and the workspace limit.
// A PyTorch call (`--torch OP`) is described as cuBLASLt sees it: torch's row-major D[m][n] =
// X[m][k] W[k][n] is the library's column-major D^T = W^T X^T, so the library's A is torch's second
// operand, its M and N are torch's n and m, and the layout is NN (torch.matmul, torch.addmm) or TN
// (torch.nn.functional.linear's weight W[n][k], torch._scaled_mm's column-major mat2).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::api {

struct LibraryCallOptions {
  std::string library;                 // "cublaslt-h200"
  std::string a_type, b_type, d_type;  // the library's A, B and D types (with --torch: mat1, mat2, out)
  float alpha = 1.0f, beta = 0.0f;
  std::string scale_a, scale_b;        // numbers (FP8 only)
  bool fast_accum = false;
  std::string layout = "TN";
  // The workspace limit the heuristic plans for; unset: 32 MiB, or for a PyTorch call torch's own
  // (torch_workspace below).
  std::optional<size_t> workspace;
  std::string torch_op;                // "", matmul, addmm, linear, scaled_mm
  // --torch: the input is a bias vector (addmm with a 1-D input, linear with a bias), given broadcast
  // to torch's [m, n] (torch_bias_epilogue says whether cuBLASLt's bias epilogue adds it).
  bool bias = false;
  // --torch matmul or addmm: mat2 is a transposed view (stored as [n][k]), so the library sees TN;
  // mat1 a transposed view (stored as [k][m]): NT. Both: TT, which the resolver has no answers for.
  bool mat2_transposed = false;
  bool mat1_transposed = false;
  // --torch: a batched call (torch.bmm, baddbmm, matmul of batches) of this many products; the operands
  // given are one of them, computed with the batched call's configuration (call_kinds.hpp).
  size_t batch = 1;
  // --torch: only these rows of torch's D (every output is its own; the call is described, resolved and
  // checked with all m rows): D [rows.size(), n]. Empty: every row.
  std::vector<size_t> rows;
  std::string resolver;                // the profile's resolver data
  // --algo auto: the certainty an answer of the resolver needs (lt::Resolution::certainty); a call
  // whose answer is less sure is refused with the reason. Unset: answered, with a warning on stderr
  // below lt::kCertaintyGate (`--strict` and mmaemu.torch.emulate(strict=True) set the gate).
  std::optional<double> min_certainty;
  // A capture of a model's calls (lt_capture.hpp): a call found there takes the configuration the library
  // ran for it; one not found takes the resolver's answer with a warning on stderr, and is refused under a
  // certainty requirement (strict). A capture made with another library build or SM count than the
  // profile's is refused, unless force_capture (then taken, with a warning).
  std::string calls;
  bool force_capture = false;
};

// The library profiles, in one list: the names --library takes and what `mmaemu info` says of each
// (which library builds a profile stands for: one per distinct library file).
struct LibraryProfileInfo {
  std::string name, library, builds;
  long long library_version = 0;  // cublasLtGetVersion() of the library it stands for
  int sm_count = 0;               // the GPU's SMs (the heuristic plans its waves for them)
};
const std::vector<LibraryProfileInfo>& library_profiles();
const LibraryProfileInfo& library_profile(const std::string& name);  // InputError (--library) for an unknown one

// The profile's resolver file in this source tree (the default of --resolver).
std::filesystem::path default_resolver();

// A finite number, all of the text (a library call's scale factor); InputError naming `option`.
float parse_scale_factor(const char* option, const std::string& text);

// The library call: unknown profile, types, layout or scale: InputError naming the option. M, N, K are
// the library's (for --torch, call torch_call below first).
lt::LtCall describe_library_call(const LibraryCallOptions& o, size_t M, size_t N, size_t K);

// The workspace limit PyTorch 2.11 gives cuBLASLt's heuristic for an op (cuBLASLt's log on an H200,
// fixtures/torch-h200/lt-log.txt.xz and reports/h200/python-example): _scaled_mm calls cublasLtMatmul
// with its 1 MiB workspace; matmul, addmm and linear go through cuBLAS, which plans for 32 MiB.
size_t torch_workspace(const std::string& torch_op);

// Whether PyTorch 2.11 hands a bias to cuBLASLt's EPILOGUE_BIAS (its Lt path: beta 1) rather than
// running a GEMM with C the bias broadcast and beta (its cuBLAS path). describe_torch_call refuses beta 1
// with n or k = 1, whose path is not recorded.
bool torch_bias_epilogue(const LibraryCallOptions& o, size_t m, size_t n, size_t k);

// --torch OP with torch's m, n, k: the library's call (M = n, N = m, the op's layout, A = mat2's type).
lt::LtCall describe_torch_call(const LibraryCallOptions& o, size_t m, size_t n, size_t k);

}  // namespace mmaemu::api
