#include "harness/api/library_call.hpp"

#include <algorithm>
#include <cmath>

#include "harness/core/errors.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::api {
namespace {

ref::FormatId format_option(const std::string& name, const char* option) {
  const auto f = ref::parse_format(name);
  if (!f) throw InputError(option, "unknown format '" + name + "'");
  return *f;
}

}  // namespace

const std::vector<LibraryProfileInfo>& library_profiles() {
  static const std::vector<LibraryProfileInfo> profiles = {
      {"cublaslt-h200",
       "cuBLASLt 13.1.0.3 (130100) on an NVIDIA H200 (132 SMs): the library model (algorithms " + ref::modelled_algorithm_list() +
           ", fitted from recordings) and the heuristic's resolver (fixtures/cublaslt-h200/heuristic)",
       "the CUDA 13.0 toolkit's libcublasLt.so.13.1.0.3 and PyTorch 2.11's wheel (nvidia-cublas 13.1.0.3): the same "
       "file (SHA-256 656298c8...), so one profile serves both (fixtures/torch-h200)",
       130100, 132}};
  return profiles;
}

const LibraryProfileInfo& library_profile(const std::string& name) {
  const auto& profiles = library_profiles();
  const auto it = std::find_if(profiles.begin(), profiles.end(), [&](const auto& p) { return p.name == name; });
  if (it != profiles.end()) return *it;
  std::string known;
  for (const auto& p : profiles) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError("--library", "unknown library profile '" + name + "' (" + known + ")");
}

std::filesystem::path default_resolver() { return MMAEMU_SOURCE_DIR "/fixtures/cublaslt-h200/heuristic/resolver.json"; }

float parse_scale_factor(const char* option, const std::string& text) {
  size_t used = 0;
  float v = 0;
  try {
    v = std::stof(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || used == 0 || !std::isfinite(v))
    throw InputError(option, "'" + text + "' is not a number (with --library, the scale factor is a number)");
  return v;
}

lt::LtCall describe_library_call(const LibraryCallOptions& o, size_t M, size_t N, size_t K) {
  library_profile(o.library);
  if (o.a_type.empty() || o.b_type.empty() || o.d_type.empty())
    throw InputError("--library", "a library call needs --a-type, --b-type and --d-type");
  if (o.torch_op.empty()) {  // the options that describe a PyTorch call have no meaning for a library call
    if (o.batch != 1) throw InputError("--batch", "describes one product of torch's batched call: only with --torch");
    if (o.mat1_transposed || o.mat2_transposed)
      throw InputError(o.mat1_transposed ? "--mat1-transposed" : "--mat2-transposed",
                       "describes torch's operand views: only with --torch (a library call names --layout)");
    if (!o.rows.empty()) throw InputError("rows", "only for a PyTorch call");
  }
  lt::LtCall call;
  call.a = format_option(o.a_type, "--a-type");
  call.b = format_option(o.b_type, "--b-type");
  call.c = call.d = format_option(o.d_type, "--d-type");
  call.compute = call.a == ref::FormatId::tf32 ? lt::ComputeType::f32_fast_tf32 : lt::ComputeType::f32;
  call.alpha = o.alpha;
  call.beta = o.beta;
  call.scale_a = o.scale_a.empty() ? 1.0f : parse_scale_factor("--scale-a", o.scale_a);
  call.scale_b = o.scale_b.empty() ? 1.0f : parse_scale_factor("--scale-b", o.scale_b);
  call.fast_accum = o.fast_accum;
  const auto layout = lt::parse_layout(o.layout);
  if (!layout) throw InputError("--layout", "unknown layout '" + o.layout + "' (TN, NN, NT)");
  call.layout = *layout;
  call.max_workspace = o.workspace.value_or(size_t{32} << 20);
  call.M = M;
  call.N = N;
  call.K = K;
  if (o.bias && o.torch_op.empty()) {  // the library's own view: C holds the bias broadcast along D's rows
    if (o.beta != 1.0f) throw InputError("--beta", "with --bias, beta is 1 (C holds the bias vector broadcast along D's rows)");
    call.bias = true;
  }
  return call;
}

size_t torch_workspace(const std::string& torch_op) {
  return torch_op == "scaled_mm" ? size_t{1} << 20 : size_t{32} << 20;
}

// PyTorch's bias calls on an H100 (reports/h100/torch-uncovered Q1): addmm with a 1-D input and beta 1
// and F.linear with a bias ran cublasLtMatmul with EPILOGUE_BIAS, beta 0 and a 1 MiB workspace limit;
// addmm with beta 0.5 ran cuBLAS's GEMM with the bias broadcast into C. A single row (m = 1) took the
// epilogue too (1 x 4096 x 1104 in every type). aten's source reads as wanting mat2's dimensions (k, n)
// above 1 for its Lt path, but no such call is recorded: describe_torch_call refuses them.
bool torch_bias_epilogue(const LibraryCallOptions& o, size_t, size_t n, size_t k) {
  return o.bias && o.beta == 1.0f && n > 1 && k > 1;
}

lt::LtCall describe_torch_call(const LibraryCallOptions& o, size_t m, size_t n, size_t k) {
  LibraryCallOptions lib = o;
  const bool epilogue = torch_bias_epilogue(o, m, n, k);
  if (o.bias && o.torch_op != "addmm" && o.torch_op != "linear")
    throw InputError("--bias", "torch." + o.torch_op + " takes no bias (torch.addmm and linear do)");
  // Which way torch sends a bias with beta 1 when n or k is 1 (its epilogue or a GEMM with the bias
  // broadcast) is read from aten's source only, never recorded: refused rather than guessed.
  if (o.bias && o.beta == 1.0f && (n == 1 || k == 1))  // (0: the options checked before the operands)
    throw InputError("--bias", "a bias with n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                                   ": torch's path for it (cuBLASLt's bias epilogue or a GEMM with the bias broadcast) is "
                                   "not recorded; refused");
  if (!lib.workspace) lib.workspace = epilogue ? size_t{1} << 20 : torch_workspace(o.torch_op);
  std::swap(lib.a_type, lib.b_type);    // the library's A is torch's mat2
  std::swap(lib.scale_a, lib.scale_b);  // and torch's scale_b is the library's scale_a
  if (o.torch_op == "matmul" || o.torch_op == "addmm") {
    if (o.mat1_transposed && o.mat2_transposed)
      throw InputError("--mat1-transposed", "both operands transposed views: cuBLAS sees TT, which the resolver was not fitted on");
    lib.layout = o.mat2_transposed ? "TN" : o.mat1_transposed ? "NT" : "NN";
  } else if (o.torch_op == "linear" || o.torch_op == "scaled_mm") {
    if (o.mat1_transposed)
      throw InputError("--mat1-transposed", "torch." + o.torch_op + " with a transposed input: cuBLAS sees TT, which the "
                                                "resolver was not fitted on");
    lib.layout = "TN";
  } else {
    throw InputError("--torch", "unknown torch operation '" + o.torch_op + "' (matmul, addmm, linear, scaled_mm)");
  }
  if (o.torch_op != "addmm" && o.beta != (o.bias ? 1.0f : 0.0f))
    throw InputError("--beta", "torch." + o.torch_op + " has no beta (torch.addmm has)");
  // Operands with a dimension of 1 are contiguous both ways, and aten then passes them untransposed
  // (cuBLASLt's log of 200 fresh PyTorch 2.11 calls on an H100, reports/h100/torch-fresh: linear and 4-D
  // matmul with k = 1, linear with n = 1 ran NN where the views alone say TN; a batched call with n = 1
  // ran unswapped, M = m and N = 1 in layout TT).
  if (o.torch_op != "scaled_mm" && (k == 1 || (o.torch_op == "linear" && n == 1))) lib.layout = "NN";
  if (o.batch > 1 && n == 1 && k != 1)
    throw InputError("--batch", "a batched call with n = 1: cuBLAS runs it as M = " + std::to_string(m) +
                                    ", N = 1 in layout TT (recorded), which the resolver was not fitted on; refused");
  lt::LtCall call = describe_library_call(lib, n, m, k);
  call.bias = epilogue;  // beta stays 1: the bias added once, as ref::LibraryCall::bias says
  if (o.batch == 0) throw InputError("--batch", "a batched call has at least one product");
  if (o.batch > 1 && (o.bias || o.torch_op == "linear" || o.torch_op == "scaled_mm"))
    throw InputError("--batch", "torch." + o.torch_op + (o.bias ? " with a bias" : "") + " makes no batched call");
  call.batch = o.batch;
  return call;
}

}  // namespace mmaemu::api
