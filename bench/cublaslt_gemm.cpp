#include "cublaslt_gemm.hpp"

#include <cublasLt.h>

#include "cuda_support.hpp"
#include "lt_cuda_types.hpp"

namespace mmaemu::bench {
namespace {

void lt_check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw GpuError(std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(status)) + " (" +
                   cublasLtGetStatusName(status) + ": " + cublasLtGetStatusString(status) + ")");
}

bool is_fp8(ref::FormatId f) { return f == ref::FormatId::e4m3 || f == ref::FormatId::e5m2; }

// Owners of cuBLASLt's descriptor handles.
struct Handle {
  cublasLtHandle_t h = nullptr;
  Handle() { lt_check(cublasLtCreate(&h), "cublasLtCreate"); }
  ~Handle() { cublasLtDestroy(h); }
};
struct MatmulDesc {
  cublasLtMatmulDesc_t d = nullptr;
  MatmulDesc(cublasComputeType_t c, cudaDataType_t s) { lt_check(cublasLtMatmulDescCreate(&d, c, s), "cublasLtMatmulDescCreate"); }
  ~MatmulDesc() { cublasLtMatmulDescDestroy(d); }
  template <class T>
  void set(cublasLtMatmulDescAttributes_t attr, const T& v) {
    lt_check(cublasLtMatmulDescSetAttribute(d, attr, &v, sizeof v), "cublasLtMatmulDescSetAttribute");
  }
};
struct Layout {
  cublasLtMatrixLayout_t l = nullptr;
  Layout(cudaDataType_t t, size_t rows, size_t cols) {
    lt_check(cublasLtMatrixLayoutCreate(&l, t, rows, cols, static_cast<int64_t>(rows)), "cublasLtMatrixLayoutCreate");
  }
  ~Layout() { cublasLtMatrixLayoutDestroy(l); }
};
struct Preference {
  cublasLtMatmulPreference_t p = nullptr;
  explicit Preference(size_t workspace) {
    lt_check(cublasLtMatmulPreferenceCreate(&p), "cublasLtMatmulPreferenceCreate");
    lt_check(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                  sizeof workspace),
             "cublasLtMatmulPreferenceSetAttribute");
  }
  ~Preference() { cublasLtMatmulPreferenceDestroy(p); }
};

std::string describe_algo(const cublasLtMatmulAlgo_t& algo) {
  auto cfg = [&](cublasLtMatmulAlgoConfigAttributes_t attr) {
    int v = -1;
    size_t written = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &v, sizeof v, &written) != CUBLAS_STATUS_SUCCESS) return -1;
    return v;
  };
  return "algo " + std::to_string(cfg(CUBLASLT_ALGO_CONFIG_ID)) + ", tile " +
         std::to_string(cfg(CUBLASLT_ALGO_CONFIG_TILE_ID)) + ", stages " +
         std::to_string(cfg(CUBLASLT_ALGO_CONFIG_STAGES_ID)) + ", split-K " +
         std::to_string(cfg(CUBLASLT_ALGO_CONFIG_SPLITK_NUM)) + ", reduction " +
         std::to_string(cfg(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME));
}

// The B type cuBLASLt can pair with A: itself, except e5m2 x e5m2, which it lacks.
ref::FormatId native_b_format(ref::FormatId a) { return a == ref::FormatId::e5m2 ? ref::FormatId::e4m3 : a; }

}  // namespace

bool has_fast_accum_variant(ref::FormatId f) { return is_fp8(f); }

NativeTiming time_cublaslt(const NativeSetup& setup, const kernels::GemmShape& shape, uint64_t seed, int warmup,
                           int samples, L2Flusher& flusher) {
  NativeTiming t;
  t.a_format = setup.format;
  t.b_format = native_b_format(setup.format);
  if (shape.batch != 1) {
    t.unsupported = "batched shapes are not benchmarked natively";
    return t;
  }
  const bool tf32 = setup.format == ref::FormatId::tf32;
  const cublasComputeType_t compute = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  t.compute_type = tf32 ? "32F_FAST_TF32" : "32F";

  Handle handle;
  MatmulDesc desc(compute, CUDA_R_32F);
  desc.set(CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_T);
  desc.set(CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N);

  // Operands: the same realistic family the backends get, in the types cuBLASLt reads.
  const HostOperands ops = realistic_operands(t.a_format, t.b_format, ref::FormatId::fp32, shape, seed);
  DeviceBuffer a(ops.a.size() * storage_bytes(t.a_format)), b(ops.b.size() * storage_bytes(t.b_format)),
      c(ops.c.size() * 4), d(ops.c.size() * 4), workspace(setup.workspace_bytes);
  a.upload(pack_storage(ops.a, t.a_format).data(), a.bytes());
  b.upload(pack_storage(ops.b, t.b_format).data(), b.bytes());
  c.upload(ops.c.data(), c.bytes());

  // FP8 scale factors (1.0): each in its own allocation (cuBLASLt refused a scale placed inside a
  // larger allocation at execution time, after its heuristic had offered algorithms).
  DeviceBuffer scale_a, scale_b;
  if (is_fp8(setup.format)) {
    const float one = 1.0f;
    scale_a = DeviceBuffer(sizeof one);
    scale_b = DeviceBuffer(sizeof one);
    scale_a.upload(&one, sizeof one);
    scale_b.upload(&one, sizeof one);
    desc.set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, scale_a.get());
    desc.set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, scale_b.get());
    const int8_t fast = setup.fast_accum ? 1 : 0;
    desc.set(CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast);
  }

  Layout la(lt::cuda_storage_type(t.a_format), shape.K, shape.M);  // K x M, transposed by the op
  Layout lb(lt::cuda_storage_type(t.b_format), shape.K, shape.N);
  Layout lc(CUDA_R_32F, shape.M, shape.N);
  Layout ld(CUDA_R_32F, shape.M, shape.N);
  Preference pref(setup.workspace_bytes);

  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t hs =
      cublasLtMatmulAlgoGetHeuristic(handle.h, desc.d, la.l, lb.l, lc.l, ld.l, pref.p, 1, &heuristic, &found);
  if (hs != CUBLAS_STATUS_SUCCESS || found == 0) {
    t.unsupported = std::string("cuBLASLt offers no algorithm (") +
                    (hs != CUBLAS_STATUS_SUCCESS ? cublasLtGetStatusName(hs) : "no heuristic result") + ")";
    return t;
  }
  t.algorithm = describe_algo(heuristic.algo);

  const float alpha = 1.0f, beta = 1.0f;
  cudaStream_t stream = nullptr;  // the legacy default stream: the flush and the matmul stay in order
  auto matmul = [&] {
    lt_check(cublasLtMatmul(handle.h, desc.d, &alpha, a.get(), la.l, b.get(), lb.l, &beta, c.get(), lc.l, d.get(),
                            ld.l, &heuristic.algo, workspace.get(), workspace.bytes(), stream),
             "cublasLtMatmul");
  };
  for (int i = 0; i < warmup; ++i) matmul();
  cuda_check(cudaStreamSynchronize(stream), "cuBLASLt warm-up");
  EventTimer timer;
  t.samples_ms.reserve(samples);
  for (int i = 0; i < samples; ++i) {
    flusher.flush(stream);
    timer.start(stream);
    matmul();
    timer.stop(stream);
    t.samples_ms.push_back(timer.elapsed_ms());
  }
  cuda_check(cudaGetLastError(), "cuBLASLt timed calls");
  return t;
}

}  // namespace mmaemu::bench
