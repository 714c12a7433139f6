#include "harness/api/library.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <set>

#include "harness/api/call_kinds.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"
#include "harness/cublaslt/lt_capture.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_resolver.hpp"
#include "kernels/library/library_gemm.hpp"

namespace mmaemu::api {
namespace {

const std::string& resolver_of(const LibraryCallOptions& o) {
  static const std::string fallback = default_resolver().string();
  return o.resolver.empty() ? fallback : o.resolver;
}

// The resolver of a file, read once per process (a model's matmuls resolve one call after another).
const lt::Resolver& loaded_resolver(const std::string& file) {
  static std::mutex mutex;
  static std::map<std::string, lt::Resolver> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(file);
  if (it == loaded.end()) it = loaded.emplace(file, lt::Resolver::load(file)).first;
  return it->second;
}

// The resolver's answer for the call; for a batched or bias call, its kind's rule (call_kinds.hpp).
lt::Resolution resolution(const std::string& resolver, const lt::LtCall& call, const std::string& option) {
  return resolve_call_kind(loaded_resolver(resolver).resolve(call, option), call, measured_call_kinds(resolver));
}

// Once per process and text: a warning on stderr (a model's layers repeat their calls).
void warn_once(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::lock_guard<std::mutex> lock(mutex);
  if (warned.insert(text).second) std::cerr << "mmaemu: warning: " << text << "\n";
}

// The capture a call names, read once per process, and checked against the call's profile: one made
// with another library build or SM count picks other configurations, so it is refused (or, with
// force_capture, taken with a warning).
const lt::Capture& loaded_capture(const LibraryCallOptions& o) {
  static std::mutex mutex;
  static std::map<std::string, lt::Capture> loaded;
  const lt::Capture* cap = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(o.calls);
    if (it == loaded.end()) it = loaded.emplace(o.calls, lt::Capture::read(o.calls)).first;
    cap = &it->second;
  }
  const LibraryProfileInfo& profile = library_profile(o.library);
  if (const auto why = cap->incompatible(profile.library_version, profile.sm_count)) {
    if (!o.force_capture)
      throw InputError("--calls", o.calls + ": " + *why + "; refused for profile " + o.library +
                                      " (--force-capture takes it anyway)");
    warn_once("--calls " + o.calls + ": " + *why + "; taken anyway (--force-capture): its configurations may not be "
              "the ones " + o.library + "'s library picks");
  }
  return *cap;
}

// The configuration the capture holds for the call, as a resolution (certainty 1), or none (no capture,
// or the call is not in it).
std::optional<lt::Resolution> captured(const LibraryCallOptions& o, const lt::LtCall& call) {
  if (o.calls.empty()) return std::nullopt;
  const lt::CapturedCall* hit = loaded_capture(o).find(call);
  if (!hit) return std::nullopt;
  lt::Resolution r;
  r.config = hit->config;
  r.certainty = 1;
  r.basis = "the configuration cuBLASLt ran for this call (" + o.calls + ":" + std::to_string(hit->line) + ")";
  return r;
}

// A matrix operand's words after its dtype and shape check (rows, cols: 0 accepts any).
const std::vector<uint32_t>& matrix_words(const Operand& o, char role, ref::FormatId f, size_t rows, size_t cols) {
  const NpyArray& a = o.array;
  if (a.word_bytes != storage_bytes(f) || a.shape.size() != 2 || (rows && a.shape[0] != rows) ||
      (cols && a.shape[1] != cols))
    throw InputError(o.name, std::string(1, role) + " has " + a.dtype_name() + " " + a.shape_string() + "; expected " +
                                 std::string(ref::format_name(f)) + " [" + (rows ? std::to_string(rows) : "rows") +
                                 ", " + (cols ? std::to_string(cols) : "cols") + "]");
  return a.values;
}

// An answer less sure than the caller requires is refused with its reason; without a requirement, one
// below the resolver's gate is answered with a warning on stderr, once per call shape and process (a
// model's layers repeat their shapes).
void check_certainty(const LibraryCallOptions& o, const lt::LtCall& call, const lt::Resolution& res) {
  if (o.min_certainty && res.certainty < *o.min_certainty) {
    char need[32];
    std::snprintf(need, sizeof need, "%.3g%%", 100 * *o.min_certainty);
    throw InputError("--algo auto", "the resolver is not sure cuBLASLt picks " + res.config->describe() + " for " +
                                        call.name() + " (" + res.basis + "; " + need +
                                        " required): refused rather than risk other bits; give the configuration "
                                        "cuBLASLt ran with --algo FILE");
  }
  if (o.min_certainty || res.certainty >= lt::kCertaintyGate) return;
  warn_once("--algo auto: the resolver is not sure cuBLASLt picks " + res.config->describe() + " for " + call.name() +
            " (" + res.basis + "); the bits are the model's for that configuration (--strict refuses such a call)");
}

// PyTorch's addmm runs C and D as one buffer through cuBLAS; on algorithm 66 without split-K in 16-bit
// with alpha = beta = 1 that gave D = round(round(acc) + C) on an H100 (8 of 8 calls,
// reports/h100/torch-uncovered), not the epilogue the model has (which out-of-place calls with the same
// scalars follow: fixtures/cublaslt-h200/epilogue). With only one of alpha, beta equal to 1 it is not
// recorded. Refused by name until modelled.
void check_torch_in_place_epilogue(const LibraryCallOptions& o, const lt::LtCall& call, const lt::LtAlgoConfig& algo) {
  const bool sixteen_bit = call.d == ref::FormatId::bf16 || call.d == ref::FormatId::fp16;
  if (o.torch_op != "addmm" || call.bias || call.beta == 0.0f || !sixteen_bit || algo.algo_id != 66 || algo.split_k > 1) return;
  if (call.alpha != 1.0f && call.beta != 1.0f) return;
  throw InputError("--torch addmm", "torch.addmm into " + std::string(ref::format_name(call.d)) +
                                        " with alpha or beta 1 on cuBLASLt algorithm 66 without split-K: cuBLAS adds C "
                                        "in D's buffer with an epilogue the library model does not have yet; refused");
}

lt::LtAlgoConfig resolved_configuration(const LibraryCallOptions& o, const std::optional<lt::LtAlgoConfig>& given,
                                        const lt::LtCall& call);

lt::LtAlgoConfig configuration(const LibraryCallOptions& o, const std::optional<lt::LtAlgoConfig>& given,
                               const lt::LtCall& call) {
  const lt::LtAlgoConfig algo = resolved_configuration(o, given, call);
  check_torch_in_place_epilogue(o, call, algo);
  return algo;
}

lt::LtAlgoConfig resolved_configuration(const LibraryCallOptions& o, const std::optional<lt::LtAlgoConfig>& given,
                                        const lt::LtCall& call) {
  if (given) return *given;
  if (const auto cap = captured(o, call)) {
    if (const auto why = ref::model_declines(lt::library_call(call), lt::library_algo(*cap->config)))
      throw InputError("--calls", "cuBLASLt ran " + cap->config->describe() + " for " + call.name() + " (" + cap->basis +
                                      "): " + why->detail);
    return *cap->config;
  }
  if (!o.calls.empty()) {
    if (o.min_certainty)
      throw InputError("--calls", call.name() + " is not in the capture " + o.calls +
                                      ": refused rather than take the resolver's prediction (strict)");
    warn_once("--calls: " + call.name() + " is not in the capture " + o.calls + "; the resolver answers it");
  }
  const std::string& resolver = resolver_of(o);
  const lt::Resolution res = resolution(resolver, call, "--algo auto");
  if (!res.config)
    throw InputError("--algo auto", "the resolver (" + resolver + ") says cuBLASLt refuses " + call.name() + " (" +
                                        res.refused + "); the library model runs it: give a configuration with --algo FILE");
  if (const auto why = ref::model_declines(lt::library_call(call), lt::library_algo(*res.config)))
    throw InputError("--algo auto", "the heuristic picks " + res.config->describe() + " for " + call.name() + ": " + why->detail);
  check_certainty(o, call, res);
  return *res.config;
}

void check_runs(const lt::LtCall& call) {
  if (const auto why = ref::library_refuses(lt::library_call(call)))
    throw InputError("", "cuBLASLt refuses this call on the H200: " + why->detail);
}

NpyArray compute(const LibraryRequest& r, lt::LtCall call, lt::LtOperands ops) {
  check_runs(call);
  const lt::LtAlgoConfig algo = configuration(r.call, r.config, call);
  const auto engine = kernels::parse_library_engine(r.engine);
  if (!engine) throw InputError("--backend", "a library call runs on reference, host, cpu or cuda, not '" + r.engine + "'");
  NpyArray d;
  d.word_bytes = storage_bytes(call.d);
  d.shape = {call.M, call.N};
  d.values = lt::model_d(call, algo, ops, *engine);
  return d;
}

// What torch returns without calling the library (aten's addmm and mm on CUDA, Blas.cpp): an empty
// result as it is; with K = 0, zeros, or for addmm beta * input by at::mul: beta rounded to input's
// dtype first, the product in fp32 (exact for 16-bit dtypes) rounded once to the dtype; beta = 1 gives
// input itself. Recorded on an H100 with PyTorch 2.11 (reports/h100/torch-uncovered: beta 0, 1, 0.5 and
// 1.7 in bf16, fp16, fp32; fp32(1.7) * input rounded once, rather than beta in the dtype, misses 2 to
// 2,158 outputs in 16-bit). A NaN product is the GPU's canonical NaN (its fmul returns it for any NaN
// operand). input is [m][n] in D's format.
NpyArray torch_without_library(const LibraryCallOptions& o, size_t m, size_t n, const std::vector<uint32_t>& input,
                               ref::FormatId out) {
  NpyArray d;
  d.word_bytes = storage_bytes(out);
  d.shape = {m, n};
  d.values.assign(m * n, ref::zero_bits(out, false));
  if (o.torch_op != "addmm" || o.beta == 0.0f || m * n == 0) return d;
  if (o.beta == 1.0f) {
    d.values = input;
    return d;
  }
  using ref::FormatId;
  using ref::Rounding;
  const auto to_float = [](FormatId f, uint32_t x) {
    float v;
    const uint32_t b = ref::convert(f, x, FormatId::fp32, Rounding::nearest_even);
    std::memcpy(&v, &b, 4);
    return v;
  };
  uint32_t beta_bits;
  std::memcpy(&beta_bits, &o.beta, 4);
  const float beta = to_float(out, ref::convert(FormatId::fp32, beta_bits, out, Rounding::nearest_even));
  for (size_t i = 0; i < m * n; ++i) {
    const float p = beta * to_float(out, input[i]);
    uint32_t b;
    std::memcpy(&b, &p, 4);
    d.values[i] = p != p ? ref::canonical_nan(out) : ref::convert(FormatId::fp32, b, out, Rounding::nearest_even);
  }
  return d;
}

// Rows `rows` of a row-major matrix of `m` rows of `width` words (InputError naming a row past m).
std::vector<uint32_t> select_rows(const std::vector<uint32_t>& matrix, size_t m, size_t width, const std::vector<size_t>& rows) {
  std::vector<uint32_t> out;
  out.reserve(rows.size() * width);
  for (const size_t i : rows) {
    if (i >= m) throw InputError("rows", "row " + std::to_string(i) + " of a result of " + std::to_string(m) + " rows");
    const auto first = matrix.begin() + static_cast<std::ptrdiff_t>(i * width);
    out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(width));
  }
  return out;
}

}  // namespace

bool torch_calls_no_library(size_t m, size_t n, size_t k) { return m == 0 || n == 0 || k == 0; }

NpyArray library_gemm(const LibraryRequest& r) {
  lt::LtCall call = describe_library_call(r.call, 0, 0, 0);  // checks the options before the operands
  lt::LtOperands ops;
  ops.a = matrix_words(r.a, 'A', call.a, 0, 0);
  call.M = r.a.array.shape[0];
  call.K = r.a.array.shape[1];
  ops.b = matrix_words(r.b, 'B', call.b, call.K, 0);
  call.N = r.b.array.shape[1];
  ops.c = matrix_words(r.c, 'C', call.c, call.M, call.N);
  return compute(r, call, std::move(ops));
}

NpyArray torch_gemm(const LibraryRequest& r) {
  describe_torch_call(r.call, 0, 0, 0);  // checks the options before the operands
  const LibraryCallOptions& o = r.call;
  const auto mat1_type = ref::parse_format(o.a_type), mat2_type = ref::parse_format(o.b_type),
             out_type = ref::parse_format(o.d_type);
  const std::vector<uint32_t>& mat1 = matrix_words(r.a, 'A', *mat1_type, 0, 0);
  const size_t m = r.a.array.shape[0], k = r.a.array.shape[1];
  const std::vector<uint32_t>& mat2 = matrix_words(r.b, 'B', *mat2_type, k, 0);
  const size_t n = r.b.array.shape[1];
  const std::vector<uint32_t>& input = matrix_words(r.c, 'C', *out_type, m, n);
  if (torch_calls_no_library(m, n, k)) {
    NpyArray d = torch_without_library(o, m, n, input, *out_type);
    if (o.rows.empty()) return d;
    return NpyArray{d.word_bytes, {o.rows.size(), n}, select_rows(d.values, m, n, o.rows)};
  }
  lt::LtCall call = describe_torch_call(o, m, n, k);
  check_runs(call);
  // The whole call's configuration and its checks, once, before any subset of its rows.
  LibraryRequest subset = r;
  subset.config = configuration(o, r.config, call);
  // Rows of D asked for: the library's N becomes their count (no output depends on the others).
  const std::vector<uint32_t>* x = &mat1;
  const std::vector<uint32_t>* c = &input;
  std::vector<uint32_t> x_rows, c_rows;
  size_t rows = m;
  if (!o.rows.empty()) {
    x_rows = select_rows(mat1, m, k, o.rows);
    c_rows = select_rows(input, m, n, o.rows);
    x = &x_rows;
    c = &c_rows;
    rows = o.rows.size();
  }
  lt::LtOperands ops;  // the library's A' = mat2^T [n][k], B' = mat1^T [k][m], C' = input^T [n][m]
  ops.a = lt::transpose(mat2, k, n);
  ops.b = lt::transpose(*x, rows, k);
  ops.c = lt::transpose(*c, rows, n);
  call.N = rows;
  NpyArray d = compute(subset, call, std::move(ops));
  d.values = lt::transpose(d.values, n, rows);  // D' = D^T
  d.shape = {rows, n};
  return d;
}

void library_gemm_on_device(const LibraryCallOptions& o, const std::optional<lt::LtAlgoConfig>& config,
                            const DeviceArray& a, const DeviceArray& b, const DeviceArray& c,
                            const DeviceArray& d) {
  if (const auto why = kernels::library_engine_declines(kernels::LibraryEngine::cuda))
    throw kernels::KernelError("library GEMM on CUDA: " + why->detail);
  const bool torch = !o.torch_op.empty();
  lt::LtCall call = torch ? describe_torch_call(o, 0, 0, 0) : describe_library_call(o, 0, 0, 0);
  // Operand formats in the request's own view (torch's mat1 is the library's B).
  const ref::FormatId fa = torch ? call.b : call.a, fb = torch ? call.a : call.b;
  auto check = [](const DeviceArray& x, char role, ref::FormatId f, size_t rows, size_t cols) {
    if (x.bytes != storage_bytes(f) || x.shape.size() != 2 || (rows && x.shape[0] != rows) || (cols && x.shape[1] != cols))
      throw InputError(x.name, std::string(1, role) + " has " + std::to_string(x.bytes) + "-byte elements, shape " +
                                   NpyArray{x.bytes, x.shape, {}}.shape_string() + "; expected " +
                                   std::string(ref::format_name(f)) + " [" + (rows ? std::to_string(rows) : "rows") + ", " +
                                   (cols ? std::to_string(cols) : "cols") + "]");
  };
  check(a, 'A', fa, 0, 0);
  const size_t rows = a.shape[0], inner = a.shape[1];
  check(b, 'B', fb, inner, 0);
  const size_t cols = b.shape[1];
  check(c, 'C', call.d, rows, cols);
  check(d, 'D', call.d, rows, cols);
  // The library's M, N, K: for torch's mat1 [m, k] x mat2 [k, n], M = n, N = m (describe_torch_call).
  call = torch ? describe_torch_call(o, rows, cols, inner) : describe_library_call(o, rows, cols, inner);
  check_runs(call);
  const lt::LtAlgoConfig algo = configuration(o, config, call);
  const kernels::arith::LibraryParams params = kernels::library_params(lt::library_call(call), lt::library_algo(algo));
  // torch's row-major tensors are the storage of the library's transposes: A' = mat2^T, B' = mat1^T.
  const kernels::DeviceMatrix A{torch ? b.data : a.data, torch ? b.bytes : a.bytes, torch};
  const kernels::DeviceMatrix B{torch ? a.data : b.data, torch ? a.bytes : b.bytes, torch};
  const kernels::DeviceMatrix C{c.data, c.bytes, torch};
  kernels::library_gemm_cuda_device(params, lt::library_call(call), A, B, C, {d.data, d.bytes, torch});
}

nlohmann::json arithmetic(const LibraryCallOptions& o, size_t m, size_t n, size_t k, const lt::LtAlgoConfig& config) {
  const lt::LtCall call = o.torch_op.empty() ? describe_library_call(o, m, n, k) : describe_torch_call(o, m, n, k);
  nlohmann::json out;
  const ref::LibraryCall lib = lt::library_call(call);
  const ref::LibraryAlgo algo = lt::library_algo(config);
  auto why = ref::library_refuses(lib);
  if (!why) why = ref::model_declines(lib, algo);
  if (why) {
    out["decline"] = why->code_name();
    out["refused"] = why->detail;
  } else {
    out["arithmetic"] = ref::describe_plan(ref::plan_library_gemm(lib, algo));
  }
  return out;
}

nlohmann::json resolve(const LibraryCallOptions& o, size_t m, size_t n, size_t k) {
  const lt::LtCall call = o.torch_op.empty() ? describe_library_call(o, m, n, k) : describe_torch_call(o, m, n, k);
  const std::string& resolver = resolver_of(o);
  nlohmann::json out;
  out["library"] = o.library;
  out["resolver"] = resolver;
  if (!o.torch_op.empty())
    out["torch"] = {{"op", o.torch_op}, {"m", m}, {"n", n}, {"k", k},
                    {"as_the_library_sees_it", "A = torch's mat2 (W^T as A'[n][k]), B = torch's mat1 (X^T), M = n, N = m"}};
  out["call"] = lt::to_json(call);
  out["call"]["max_workspace"] = call.max_workspace;
  if (!o.torch_op.empty() && torch_calls_no_library(m, n, k)) {
    out["model"] = "torch calls no library for an empty operand: an empty result, or with K = 0 zeros "
                   "(addmm: beta * input)";
    return out;
  }
  if (const auto why = ref::library_refuses(lt::library_call(call))) {
    out["refused"] = "the library model: " + why->detail;
    out["decline"] = why->code_name();
  } else {
    const auto cap = captured(o, call);
    const lt::Resolution r = cap ? *cap : resolution(resolver, call, "mmaemu resolve");
    if (cap) out["captured"] = true;
    if (!r.config) {
      out["refused"] = "the heuristic (resolver): " + r.refused;
    } else {
      out["config"] = lt::to_json(*r.config);
      out["certainty"] = r.certainty;
      out["certainty_basis"] = r.basis;
      out["certain"] = r.certainty >= lt::kCertaintyGate;  // what --strict requires
      const auto declines = ref::model_declines(lt::library_call(call), lt::library_algo(*r.config));
      out["model"] = declines ? declines->detail : "the library model computes this configuration's bits";
      if (!declines) out["arithmetic"] = ref::describe_plan(ref::plan_library_gemm(lt::library_call(call), lt::library_algo(*r.config)));
      if (declines) out["decline"] = declines->code_name();
    }
  }
  return out;
}

}  // namespace mmaemu::api
