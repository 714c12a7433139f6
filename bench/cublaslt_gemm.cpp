#include "bench/cublaslt_gemm.hpp"

#include <cuda_runtime.h>

#include "bench/cuda_support.hpp"
#include "harness/cublaslt/lt_live.hpp"

namespace mmaemu::bench {
namespace {

bool is_fp8(ref::FormatId f) { return f == ref::FormatId::e4m3 || f == ref::FormatId::e5m2; }

// The B type cuBLASLt can pair with A: itself, except e5m2 x e5m2, which it lacks.
ref::FormatId native_b_format(ref::FormatId a) { return a == ref::FormatId::e5m2 ? ref::FormatId::e4m3 : a; }

}  // namespace

bool has_fast_accum_variant(ref::FormatId f) { return is_fp8(f); }

NativeTiming time_cublaslt(const NativeSetup& setup, const kernels::GemmShape& shape, OperandCache& operands,
                           uint64_t seed, int warmup, int samples, L2Flusher& flusher) {
  NativeTiming t;
  t.a_format = setup.format;
  t.b_format = native_b_format(setup.format);
  if (shape.batch != 1) {
    t.unsupported = "batched shapes are not benchmarked natively";
    return t;
  }
  // The call, described and run as the T3p parity suite runs it (harness/cublaslt: one set of
  // descriptors for both); FP8 scale factors 1.
  lt::LtCall call;
  call.a = t.a_format;
  call.b = t.b_format;
  call.c = call.d = ref::FormatId::fp32;
  call.compute = setup.format == ref::FormatId::tf32 ? lt::ComputeType::f32_fast_tf32 : lt::ComputeType::f32;
  call.M = shape.M;
  call.N = shape.N;
  call.K = shape.K;
  call.alpha = 1.0f;
  call.beta = 1.0f;
  call.fast_accum = is_fp8(setup.format) && setup.fast_accum;
  t.compute_type = std::string(lt::compute_name(call.compute));

  lt::LtSession session(0, setup.workspace_bytes);
  std::string why;
  const auto choices = session.heuristic(call, 1, &why);
  if (choices.empty()) {
    t.unsupported = "cuBLASLt offers no algorithm (" + why + ")";
    return t;
  }
  t.algorithm = choices[0].config.describe();

  // Operands: the same realistic family the backends get, in the types cuBLASLt reads.
  const HostOperands& ops = operands.get(t.a_format, t.b_format, ref::FormatId::fp32, shape, seed);
  const auto staged = session.stage(call, choices[0], lt::LtOperands{ops.a, ops.b, ops.c}, &why);
  if (!staged) {
    t.unsupported = "cuBLASLt refuses the call (" + why + ")";
    return t;
  }
  cudaStream_t stream = nullptr;  // the legacy default stream: the flush and the matmul stay in order
  auto matmul = [&] {
    if (const auto refused = staged->launch(stream)) throw GpuError("cublasLtMatmul: " + *refused);
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
