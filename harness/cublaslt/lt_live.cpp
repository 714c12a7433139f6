#include "harness/cublaslt/lt_live.hpp"

#include <cublasLt.h>

#include <cstring>

#include "harness/core/operands.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "harness/cublaslt/lt_cuda_types.hpp"
#include "harness/cublaslt/lt_enum_names.hpp"
#include "harness/cublaslt/lt_loader.hpp"

namespace mmaemu::lt {
namespace {

using kernels::DeviceBuffer;

std::string status_text(cublasStatus_t s) {
  return std::string(cublasLtGetStatusName(s)) + " (" + cublasLtGetStatusString(s) + ")";
}

// A refusal by cuBLASLt, carried to the outcome (never a crash, never a pass).
struct LtRefusal {
  std::string what;
};
void lt_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw LtRefusal{std::string(what) + ": " + status_text(s)};
}

// A format cuBLASLt has no type for is a refusal of the call, not a crash.
cudaDataType_t storage_type(ref::FormatId f) {
  try {
    return cuda_storage_type(f);
  } catch (const std::invalid_argument& e) {
    throw LtRefusal{e.what()};
  }
}

std::vector<uint8_t> narrow(const std::vector<uint32_t>& bits, ref::FormatId f) {
  const size_t w = static_cast<size_t>(storage_bytes(f));
  std::vector<uint8_t> out(bits.size() * w);
  for (size_t i = 0; i < bits.size(); ++i)
    for (size_t byte = 0; byte < w; ++byte) out[i * w + byte] = static_cast<uint8_t>(bits[i] >> (8 * byte));
  return out;
}

std::vector<uint32_t> widen(const std::vector<uint8_t>& bytes, ref::FormatId f) {
  const size_t w = static_cast<size_t>(storage_bytes(f));
  std::vector<uint32_t> out(bytes.size() / w);
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t v = 0;
    for (size_t byte = 0; byte < w; ++byte) v |= static_cast<uint32_t>(bytes[i * w + byte]) << (8 * byte);
    out[i] = v;
  }
  return out;
}

template <class Handle, class Destroy>
struct Owned {
  Handle h{};
  Destroy destroy;
  explicit Owned(Destroy d) : destroy(d) {}
  ~Owned() {
    if (h) destroy(h);
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
};

// The descriptors of one call: operation, layouts (column-major TN, see lt_call.hpp), preference.
struct CallDescriptors {
  Owned<cublasLtMatmulDesc_t, decltype(&cublasLtMatmulDescDestroy)> op{cublasLtMatmulDescDestroy};
  Owned<cublasLtMatrixLayout_t, decltype(&cublasLtMatrixLayoutDestroy)> a{cublasLtMatrixLayoutDestroy},
      b{cublasLtMatrixLayoutDestroy}, c{cublasLtMatrixLayoutDestroy}, d{cublasLtMatrixLayoutDestroy};
  Owned<cublasLtMatmulPreference_t, decltype(&cublasLtMatmulPreferenceDestroy)> pref{cublasLtMatmulPreferenceDestroy};

  template <class T>
  void set(cublasLtMatmulDescAttributes_t attr, const T& v) {
    lt_check(cublasLtMatmulDescSetAttribute(op.h, attr, &v, sizeof v), "cublasLtMatmulDescSetAttribute");
  }

  CallDescriptors(const LtCall& call, size_t workspace) {
    const cublasComputeType_t compute =
        call.compute == ComputeType::f32_fast_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    lt_check(cublasLtMatmulDescCreate(&op.h, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
    const bool a_transposed = call.layout == Layout::tn, b_transposed = call.layout == Layout::nt;
    set(CUBLASLT_MATMUL_DESC_TRANSA, a_transposed ? CUBLAS_OP_T : CUBLAS_OP_N);
    set(CUBLASLT_MATMUL_DESC_TRANSB, b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N);
    if (call.is_fp8()) {
      const int8_t fast = call.fast_accum ? 1 : 0;
      set(CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast);
    }
    const auto K = static_cast<uint64_t>(call.K), M = static_cast<uint64_t>(call.M), N = static_cast<uint64_t>(call.N);
    // Stored shapes (column-major, leading dimension = rows): op(A) is M x K, op(B) is K x N.
    if (a_transposed)
      lt_check(cublasLtMatrixLayoutCreate(&a.h, storage_type(call.a), K, M, static_cast<int64_t>(K)), "layout A");
    else
      lt_check(cublasLtMatrixLayoutCreate(&a.h, storage_type(call.a), M, K, static_cast<int64_t>(M)), "layout A");
    if (b_transposed)
      lt_check(cublasLtMatrixLayoutCreate(&b.h, storage_type(call.b), N, K, static_cast<int64_t>(N)), "layout B");
    else
      lt_check(cublasLtMatrixLayoutCreate(&b.h, storage_type(call.b), K, N, static_cast<int64_t>(K)), "layout B");
    lt_check(cublasLtMatrixLayoutCreate(&c.h, storage_type(call.c), M, N, static_cast<int64_t>(M)), "layout C");
    lt_check(cublasLtMatrixLayoutCreate(&d.h, storage_type(call.d), M, N, static_cast<int64_t>(M)), "layout D");
    if (call.batch > 1) {  // strided batched, the products packed one after another (as torch's are)
      const int32_t count = static_cast<int32_t>(call.batch);
      const int64_t a_stride = static_cast<int64_t>(M * K), b_stride = static_cast<int64_t>(K * N),
                    cd_stride = static_cast<int64_t>(M * N);
      for (auto [layout, stride] : {std::pair{a.h, a_stride}, {b.h, b_stride}, {c.h, cd_stride}, {d.h, cd_stride}}) {
        lt_check(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
                 "layout batch count");
        lt_check(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                                  sizeof stride),
                 "layout batch stride");
      }
    }
    if (call.bias) set(CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_BIAS);  // a bias of D's type
    lt_check(cublasLtMatmulPreferenceCreate(&pref.h), "cublasLtMatmulPreferenceCreate");
    lt_check(cublasLtMatmulPreferenceSetAttribute(pref.h, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                  sizeof workspace),
             "preference workspace");
  }
};

// Attributes are 16- or 32-bit integers, and cuBLASLt insists on the exact size: ask for it first.
int config_attr(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attr) {
  size_t size = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, nullptr, 0, &size) != CUBLAS_STATUS_SUCCESS) size = 0;
  for (const size_t tried : {size, size_t{4}, size_t{2}}) {
    uint64_t v = 0;
    size_t written = 0;
    if (tried == 0 || tried > sizeof v ||
        cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &v, tried, &written) != CUBLAS_STATUS_SUCCESS)
      continue;
    if (tried == 2) return static_cast<int>(static_cast<int16_t>(v));
    return static_cast<int>(static_cast<int32_t>(v));
  }
  return -1;
}

LtAlgoConfig read_config(const cublasLtMatmulHeuristicResult_t& r) {
  LtAlgoConfig c;
  c.algo_id = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_ID);
  c.tile = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_TILE_ID);
  c.stages = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID);
  c.split_k = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  c.reduction = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME);
  c.swizzle = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING);
  c.custom = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION);
  c.inner_shape = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID);
  c.cluster = config_attr(r.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID);
  c.workspace = r.workspaceSize;
  c.tile_name = tile_enum_name(c.tile);
  c.stages_name = stages_enum_name(c.stages);
  return c;
}

}  // namespace

struct LtSession::Impl {
  cublasLtHandle_t handle = nullptr;
  DeviceBuffer<uint8_t> workspace;
  DeviceBuffer<float> scale_a{1}, scale_b{1};  // each its own allocation: cuBLASLt requires it
};

LtSession::LtSession(int device, size_t workspace_bytes) : impl_(std::make_unique<Impl>()) {
  kernels::cuda_check(cudaSetDevice(device), "cudaSetDevice");
  if (const CublasLtLibrary& library = cublaslt_library(); !library.loaded) throw kernels::KernelError(library.error);
  if (const cublasStatus_t s = cublasLtCreate(&impl_->handle); s != CUBLAS_STATUS_SUCCESS)
    throw kernels::KernelError("cublasLtCreate failed: " + status_text(s));
  impl_->workspace = DeviceBuffer<uint8_t>(workspace_bytes);
}

LtSession::~LtSession() {
  if (impl_ && impl_->handle) cublasLtDestroy(impl_->handle);
}

size_t LtSession::workspace_bytes() const { return impl_->workspace.size(); }

std::string LtSession::library_version() const { return std::to_string(cublasLtGetVersion()); }

LtChoice LtSession::with_split(const LtChoice& choice, int split_k, int custom) const {
  cublasLtMatmulHeuristicResult_t r{};
  std::memcpy(&r.algo, choice.opaque.data(), sizeof r.algo);
  const int32_t s = split_k;
  const uint32_t c = static_cast<uint32_t>(custom);
  if (cublasLtMatmulAlgoConfigSetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &s, sizeof s) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatmulAlgoConfigSetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &c, sizeof c) != CUBLAS_STATUS_SUCCESS)
    throw kernels::KernelError("cublasLtMatmulAlgoConfigSetAttribute refused split-K " + std::to_string(split_k) +
                               " / custom option " + std::to_string(custom));
  r.workspaceSize = choice.config.workspace;
  LtChoice out;
  out.config = read_config(r);
  out.opaque.resize(sizeof r.algo);
  std::memcpy(out.opaque.data(), &r.algo, sizeof r.algo);
  return out;
}

std::vector<LtChoice> LtSession::heuristic(const LtCall& call, int count, std::string* why) {
  std::vector<LtChoice> out;
  try {
    // The call's own limit when it names one (a heuristic-only query may ask for more than the
    // session holds: nothing runs).
    CallDescriptors desc(call, call.max_workspace ? call.max_workspace : workspace_bytes());
    if (call.is_fp8()) {
      desc.set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, static_cast<void*>(impl_->scale_a.get()));
      desc.set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, static_cast<void*>(impl_->scale_b.get()));
    }
    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<size_t>(count));
    int found = 0;
    lt_check(cublasLtMatmulAlgoGetHeuristic(impl_->handle, desc.op.h, desc.a.h, desc.b.h, desc.c.h, desc.d.h,
                                            desc.pref.h, count, results.data(), &found),
             "heuristic");
    for (int i = 0; i < found; ++i) {
      if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
      LtChoice ch;
      ch.config = read_config(results[i]);
      ch.opaque.resize(sizeof(cublasLtMatmulAlgo_t));
      std::memcpy(ch.opaque.data(), &results[i].algo, sizeof(cublasLtMatmulAlgo_t));
      out.push_back(std::move(ch));
    }
    if (out.empty() && why) *why = "heuristic: no algorithm";
  } catch (const LtRefusal& r) {
    if (why) *why = r.what;
    out.clear();
  }
  return out;
}

struct LtStagedCall::Impl {
  LtCall call;
  cublasLtHandle_t handle = nullptr;
  DeviceBuffer<uint8_t>* workspace = nullptr;  // the session's
  CallDescriptors desc;
  DeviceBuffer<uint8_t> a, b, c, d;
  cublasLtMatmulAlgo_t algo{};
  Impl(const LtCall& cl, size_t workspace_bytes) : call(cl), desc(cl, workspace_bytes) {}
};

LtStagedCall::LtStagedCall(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LtStagedCall::~LtStagedCall() = default;

std::optional<std::string> LtStagedCall::launch(void* stream) {
  Impl& s = *impl_;
  try {
    lt_check(cublasLtMatmul(s.handle, s.desc.op.h, &s.call.alpha, s.a.get(), s.desc.a.h, s.b.get(), s.desc.b.h,
                            &s.call.beta, s.c.get(), s.desc.c.h, s.d.get(), s.desc.d.h, &s.algo, s.workspace->get(),
                            s.workspace->size(), static_cast<cudaStream_t>(stream)),
             "matmul");
  } catch (const LtRefusal& r) {
    return r.what;
  }
  return std::nullopt;
}

std::vector<uint32_t> LtStagedCall::read_d() {
  const LtCall& call = impl_->call;
  kernels::cuda_check(cudaDeviceSynchronize(), "cublasLtMatmul");
  std::vector<uint8_t> bytes(impl_->d.size());
  impl_->d.download(bytes.data());
  return transpose(widen(bytes, call.d), call.N, call.M);
}

std::unique_ptr<LtStagedCall> LtSession::stage(const LtCall& call, const LtChoice& choice, const LtOperands& ops,
                                               std::string* why) {
  try {
    if (call.layout != Layout::tn) {  // the operand upload below is TN's
      if (why) *why = "mmaemu runs TN calls only (this one is " + std::string(layout_name(call.layout)) + ")";
      return nullptr;
    }
    auto s = std::make_unique<LtStagedCall::Impl>(call, workspace_bytes());
    s->handle = impl_->handle;
    s->workspace = &impl_->workspace;
    auto upload = [](const std::vector<uint8_t>& bytes) {
      DeviceBuffer<uint8_t> buf(bytes.size());
      buf.upload(bytes.data());
      return buf;
    };
    // Library layout: A as is (K x M column-major = A[M][K]), B and C transposed (see lt_call.hpp).
    s->a = upload(narrow(ops.a, call.a));
    s->b = upload(narrow(transpose(ops.b, call.K, call.N), call.b));
    s->c = upload(narrow(transpose(ops.c, call.M, call.N), call.c));
    s->d = DeviceBuffer<uint8_t>(call.M * call.N * static_cast<size_t>(storage_bytes(call.d)));
    s->d.fill_bytes(0xFF);  // poison: a D the library leaves unwritten is not mistaken for a result
    if (call.is_fp8()) {
      impl_->scale_a.upload(&call.scale_a);
      impl_->scale_b.upload(&call.scale_b);
      s->desc.set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, static_cast<void*>(impl_->scale_a.get()));
      s->desc.set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, static_cast<void*>(impl_->scale_b.get()));
    }
    std::memcpy(&s->algo, choice.opaque.data(), sizeof s->algo);
    return std::unique_ptr<LtStagedCall>(new LtStagedCall(std::move(s)));
  } catch (const LtRefusal& r) {
    if (why) *why = r.what;
    return nullptr;
  }
}

LtOutcome LtSession::run(const LtCall& call, const LtChoice& choice, const LtOperands& ops) {
  LtOutcome outcome;
  std::string why;
  const auto staged = stage(call, choice, ops, &why);
  if (!staged) {
    outcome.rejected = why;
    return outcome;
  }
  if (auto refused = staged->launch()) {
    outcome.rejected = *refused;
    return outcome;
  }
  outcome.d = staged->read_d();
  return outcome;
}

}  // namespace mmaemu::lt
