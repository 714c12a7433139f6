// The kernels' library GEMM (kernels/library, host engine) against the reference's library model, bit
// for bit, on generated operands: every rule's branch (wgmma chains, tf32 rounding and K tails, FP8
// promotion, consecutive and interleaved split-K, the paired reduction, both epilogue forms, FP8 scale
// orders), every instruction family's input generator, inexact alpha, beta and scales. The recorded
// H200 outputs are checked by the T3 suites t3-cublaslt-host / -cuda.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#if defined(MMAEMU_KERNELS_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

#include "generators/families.hpp"
#include "kernels/backend.hpp"
#include "kernels/library/library_gemm.hpp"
#include "mmaemu/reference/library_gemm.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {
namespace {

using ref::FormatId;

struct Case {
  FormatId a, b, d;
  bool fast;
  size_t M, N, K;
  int algo_id, split_k, custom;
  size_t stage_k;
  int reduction = 0;  // 4: the slices' partials in D's type
  bool bias = false;  // EPILOGUE_BIAS (C the bias broadcast; alpha = beta = 1 only)
};

std::string name(const Case& c, gen::Family f) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s x %s -> %s%s %zux%zux%zu algo %d split %d custom %d, %s",
                std::string(ref::format_name(c.a)).c_str(), std::string(ref::format_name(c.b)).c_str(),
                std::string(ref::format_name(c.d)).c_str(), c.fast ? " fast" : "", c.M, c.N, c.K, c.algo_id,
                c.split_k, c.custom, std::string(gen::family_name(f)).c_str());
  return buf;
}

const std::vector<Case> kCases = {
    {FormatId::bf16, FormatId::bf16, FormatId::fp32, false, 8, 6, 200, 66, 1, 0, 64},
    {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 5, 7, 700, 66, 3, 0, 64},
    {FormatId::tf32, FormatId::tf32, FormatId::fp32, false, 6, 5, 300, 21, 1, 0, 16},
    {FormatId::tf32, FormatId::tf32, FormatId::fp32, false, 6, 5, 1040, 21, 24, 0, 16},  // 16-byte grains, residue first
    {FormatId::fp32, FormatId::fp32, FormatId::fp32, false, 6, 5, 1040, 20, 8, 0, 8},
    {FormatId::fp32, FormatId::fp32, FormatId::fp32, false, 6, 5, 512, 55, 5, 0, 8},
    {FormatId::fp32, FormatId::fp32, FormatId::fp32, false, 6, 5, 520, 55, 7, 1, 8},     // odd S, K tail block
    {FormatId::fp32, FormatId::fp32, FormatId::fp32, false, 4, 3, 4096, 55, 256, 1, 8},
    // FP8: M a multiple of 16 bytes of D (ref::library_refuses)
    {FormatId::e4m3, FormatId::e4m3, FormatId::bf16, false, 8, 5, 512, 66, 1, 0, 128},   // promotion every 128
    {FormatId::e5m2, FormatId::e4m3, FormatId::fp32, false, 8, 5, 1024, 66, 3, 0, 128},
    {FormatId::e4m3, FormatId::e4m3, FormatId::fp16, true, 6, 5, 1000, 62, -1, 0, 128},  // algorithm 62
    // algorithm 24: mma.sync k8 (bf16) / k16 (fp16) tiles, the K tile's residue first, 16-byte grains
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 7, 6, 167, 24, 2, 0, 0},
    {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 7, 3, 2599, 24, 9, 0, 128, 4},  // partials in fp16
    // algorithm 23: mma.sync k16 tiles (bf16 too), the stage depth's residue first
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 3, 5, 1000, 23, 8, 0, 64, 4},
    // reduction scheme 1: each slice added into D in D's type (fp16 k16; bf16's k8 kernel)
    {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 7, 3, 2599, 24, 3, 0, 128, 1},
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 5, 4, 1000, 24, 4, 0, 0, 1},
    {FormatId::tf32, FormatId::tf32, FormatId::fp32, false, 5, 3, 1001, 23, 4, 0, 16, 2},
    // Past the cpu engine's tiles (32 rows, 128 columns) and K chunks (128): split-K, FP8 promotion.
    {FormatId::bf16, FormatId::bf16, FormatId::fp32, false, 33, 130, 160, 66, 2, 0, 64},
    {FormatId::e4m3, FormatId::e4m3, FormatId::fp32, false, 36, 130, 304, 66, 1, 0, 128},
    // EPILOGUE_BIAS: added once (unsplit, scheme 2, algorithm 55), in place (scheme 1), after D's rounding (4)
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 8, 6, 200, 66, 1, 0, 64, 0, true},
    {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 5, 7, 700, 66, 3, 0, 64, 2, true},
    {FormatId::fp32, FormatId::fp32, FormatId::fp32, false, 6, 5, 520, 55, 7, 1, 8, 2, true},
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 3, 5, 1000, 23, 2, 0, 64, 1, true},
    {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 7, 3, 2599, 24, 3, 0, 128, 1, true},
    {FormatId::tf32, FormatId::tf32, FormatId::fp32, false, 5, 3, 1001, 23, 8, 0, 16, 1, true},
    {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 33, 130, 1000, 24, 7, 0, 0, 4, true},
};

// The call and the configuration a case describes.
ref::LibraryCall call_of(const Case& k, float alpha = 1.0f, float beta = 0.0f) {
  ref::LibraryCall call;
  call.a = k.a;
  call.b = k.b;
  call.c = call.d = k.d;
  call.M = k.M;
  call.N = k.N;
  call.K = k.K;
  call.alpha = alpha;
  call.beta = beta;
  call.fast_accum = k.fast;
  call.bias = k.bias;
  if (k.a == FormatId::e4m3 || k.a == FormatId::e5m2) {
    call.scale_a = 0.7f;
    call.scale_b = 1.9f;
  }
  return call;
}
ref::LibraryAlgo algo_of(const Case& k) {
  ref::LibraryAlgo algo;
  algo.algo_id = k.algo_id;
  algo.split_k = k.split_k;
  algo.custom = k.custom;
  algo.stage_k = k.stage_k;
  algo.reduction = k.reduction;
  return algo;
}

using Scalars = std::vector<std::pair<float, float>>;
const Scalars kScalars = {{1.0f, 0.0f}, {0.3f, -1.7f}, {-1.25f, 0.75f}};
const Scalars kBiasScalars = {{1.0f, 1.0f}};  // the bias epilogue: alpha 1 (recorded), beta 1 (ref::LibraryCall::bias)
const Scalars& scalars_of(const Case& k, const Scalars& others) { return k.bias ? kBiasScalars : others; }

// Every case x family x (alpha, beta) through each engine against ref::library_gemm; the outputs compared.
size_t compare_with_reference(const std::vector<Case>& cases, const std::vector<gen::Family>& families,
                              const Scalars& scalars, const std::vector<LibraryEngine>& engines) {
  size_t compared = 0;
  for (const Case& k : cases) {
    for (const gen::Family family : families) {
      for (const auto& [alpha, beta] : scalars_of(k, scalars)) {
        const ref::LibraryCall call = call_of(k, alpha, beta);
        const ref::LibraryAlgo algo = algo_of(k);
        // Operands from an instruction-family generator over the whole GEMM (tf32: fp32 storage).
        std::vector<uint32_t> A(k.M * k.K), B(k.K * k.N), C(k.M * k.N);
        const ref::Instruction whole{"gemm", ref::InstrFamily::mma_sync, static_cast<int>(k.M), static_cast<int>(k.N),
                                     static_cast<int>(k.K), k.a, k.b, k.d, k.d, {}, std::nullopt};
        gen::generate_tile(family, whole, 1000 + compared, A.data(), B.data(), C.data());
        std::vector<uint32_t> want(k.M * k.N);
        library_gemm(LibraryEngine::reference, call, algo, A.data(), B.data(), C.data(), want.data());
        for (const LibraryEngine engine : engines) {
          std::vector<uint32_t> got(k.M * k.N, kPoison);  // poisoned: unwritten cannot pass
          library_gemm(engine, call, algo, A.data(), B.data(), C.data(), got.data());
          for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(got[i], want[i]) << library_engine_name(engine) << ", " << name(k, family) << " alpha " << alpha
                                       << " beta " << beta << " output (" << i / k.N << ", " << i % k.N
                                       << "): expected 0x" << std::hex << want[i] << ", got 0x" << got[i];
            if (got[i] != want[i]) return compared;  // one mismatch per run is enough to read
          }
        }
        compared += want.size();
      }
    }
  }
  return compared;
}

size_t outputs_of(const std::vector<Case>& cases, size_t families, size_t scalars) {
  size_t n = 0;
  for (const Case& k : cases) n += k.M * k.N * families * (k.bias ? kBiasScalars.size() : scalars);
  return n;
}

// The kernels' engines on the CPU: host (the scalar per-output code) and cpu (its chains on lanes).
TEST(LibraryGemm, KernelEnginesMatchTheReference) {
  const size_t compared = compare_with_reference(kCases, gen::all_families(), kScalars, {LibraryEngine::host, LibraryEngine::cpu});
  EXPECT_EQ(compared, outputs_of(kCases, gen::all_families().size(), kScalars.size()));
}

// The GPU engine: every case above (one thread per output, or the slices on the tensor cores where the
// GPU is the wgmma's architecture), and calls large enough to cross tc's 128 x N tiles with split-K
// slices whose last one is short, and FP8 promotion. On an sm_90 GPU these wgmma calls must take the
// tensor cores.
TEST(LibraryGemm, CudaEngineMatchesTheReference) {
  if (auto why = library_engine_declines(LibraryEngine::cuda)) GTEST_SKIP() << why->detail;
  const std::vector<Case> large = {
      {FormatId::bf16, FormatId::bf16, FormatId::fp32, false, 130, 300, 1000, 66, 1, 0, 64},
      {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 129, 260, 1030, 66, 3, 0, 64},
      {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 64, 520, 2048, 66, 2, 0, 64},
      {FormatId::e4m3, FormatId::e5m2, FormatId::fp32, false, 136, 300, 1008, 66, 2, 0, 128},  // promotion, short chunk
  };
  size_t on_tensor_cores = 0;
  for (const Case& k : large) {
    const ref::LibraryCall call = call_of(k);
    const auto why = library_cuda_tensor_cores_declines(library_params(call, algo_of(k)), call);
    std::printf("[ cuda ] %s: %s\n", name(k, gen::Family::realistic).c_str(), why ? why->detail.c_str() : "tensor cores");
    on_tensor_cores += !why;
    // Only another GPU than tc's target may keep these wgmma calls off the tensor cores.
    if (why && why->code != DeclineCode::foreign_target && why->code != DeclineCode::no_tensor_core_code)
      ADD_FAILURE() << name(k, gen::Family::realistic) << " not on the tensor cores: " << why->detail;
  }
  size_t compared = compare_with_reference(kCases, gen::all_families(), kScalars, {LibraryEngine::cuda});
  EXPECT_EQ(compared, outputs_of(kCases, gen::all_families().size(), kScalars.size()));
  const std::vector<gen::Family> two = {gen::Family::realistic, gen::Family::cancellation};
  compared = compare_with_reference(large, two, {kScalars[0], kScalars[1]}, {LibraryEngine::cuda});
  EXPECT_EQ(compared, outputs_of(large, two.size(), 2));
  std::printf("[ cuda ] %zu of %zu large calls on the tensor cores\n", on_tensor_cores, large.size());
}

#if defined(MMAEMU_KERNELS_HAVE_CUDA)
// A matrix [rows][cols] of words in `bytes`-wide elements, stored row-major or (transposed) as the
// row-major array of its transpose.
std::vector<uint8_t> stored(const std::vector<uint32_t>& words, size_t rows, size_t cols, int bytes, bool transposed) {
  std::vector<uint8_t> out(words.size() * bytes);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      const size_t at = transposed ? c * rows + r : r * cols + c;
      for (int i = 0; i < bytes; ++i) out[at * bytes + i] = static_cast<uint8_t>(words[r * cols + c] >> (8 * i));
    }
  return out;
}

struct DeviceBytes {
  void* ptr = nullptr;
  explicit DeviceBytes(const std::vector<uint8_t>& host) {
    EXPECT_EQ(cudaMalloc(&ptr, host.size()), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(ptr, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceBytes() { cudaFree(ptr); }
  std::vector<uint8_t> download(size_t size) const {
    std::vector<uint8_t> out(size);
    EXPECT_EQ(cudaMemcpy(out.data(), ptr, size, cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

// The GPU engine on device operands as a caller stores them: row-major, and each as its transpose's
// storage (a PyTorch tensor seen by the library), with K whose rows are and are not whole 16-byte chunks
// (the slices read in place, packed K-major, or gathered), split-K with a short last slice, FP8 with
// fast accumulation and with promotion. D, read back in its storage width, equals the reference word for word.
TEST(LibraryGemm, CudaEngineReadsOperandsAsTheCallerStoresThem) {
  if (auto why = library_engine_declines(LibraryEngine::cuda)) GTEST_SKIP() << why->detail;
  const std::vector<Case> cases = {
      {FormatId::bf16, FormatId::bf16, FormatId::fp32, false, 130, 300, 1024, 66, 1, 0, 64},
      {FormatId::fp16, FormatId::fp16, FormatId::fp16, false, 129, 260, 1030, 66, 3, 0, 64},
      {FormatId::bf16, FormatId::bf16, FormatId::bf16, false, 64, 520, 2048, 66, 2, 0, 64},
      {FormatId::e4m3, FormatId::e4m3, FormatId::fp16, true, 64, 136, 1000, 62, -1, 0, 128},
      {FormatId::e4m3, FormatId::e4m3, FormatId::bf16, false, 64, 200, 1024, 66, 1, 0, 128},  // FP8 promotion
  };
  size_t compared = 0, on_tensor_cores = 0;
  for (const Case& k : cases) {
    const ref::LibraryCall call = call_of(k, 0.3f, -1.7f);
    const ref::LibraryAlgo algo = algo_of(k);
    const arith::LibraryParams p = library_params(call, algo);
    on_tensor_cores += !library_cuda_tensor_cores_declines(p, call);
    std::vector<uint32_t> A(k.M * k.K), B(k.K * k.N), C(k.M * k.N), want(k.M * k.N);
    const ref::Instruction whole{"gemm", ref::InstrFamily::mma_sync, static_cast<int>(k.M), static_cast<int>(k.N),
                                 static_cast<int>(k.K), k.a, k.b, k.d, k.d, {}, std::nullopt};
    gen::generate_tile(gen::Family::realistic, whole, 77 + compared, A.data(), B.data(), C.data());
    library_gemm(LibraryEngine::reference, call, algo, A.data(), B.data(), C.data(), want.data());
    const int ab = ref::spec(k.a).storage_bytes(), bb = ref::spec(k.b).storage_bytes(), db = ref::spec(k.d).storage_bytes();
    for (const bool transposed : {false, true}) {
      const DeviceBytes a(stored(A, k.M, k.K, ab, transposed)), b(stored(B, k.K, k.N, bb, transposed)),
          c(stored(C, k.M, k.N, db, transposed)), d(std::vector<uint8_t>(k.M * k.N * db, 0xFF));
      library_gemm_cuda_device(p, call, {a.ptr, ab, transposed}, {b.ptr, bb, transposed}, {c.ptr, db, transposed},
                               {d.ptr, db, transposed});
      const std::vector<uint8_t> got = d.download(k.M * k.N * db), expected = stored(want, k.M, k.N, db, transposed);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], expected[i]) << name(k, gen::Family::realistic) << (transposed ? ", stored transposed" : "")
                                       << ": byte " << i << " of D (element " << i / db << " of its storage)";
      compared += k.M * k.N;
    }
  }
  EXPECT_GT(compared, 0u);
  std::printf("[ cuda ] %zu outputs compared; %zu of %zu calls on the tensor cores\n", compared, on_tensor_cores,
              cases.size());
}
#endif

// The reference engine shares a call's rows among threads without making each share a call of its
// own: an FP8 call of 8 rows into bf16 runs (D's leading dimension is 16 bytes) though one of 4 rows
// would be refused. Regression: the reference engine threw "the library refuses this call" for
// recorded H200 calls when it split M = 8 over two threads.
TEST(LibraryGemm, ReferenceEngineRowsAreSharesOfTheWholeCall) {
  ref::LibraryCall call;
  call.a = call.b = FormatId::e4m3;
  call.c = call.d = FormatId::bf16;
  call.M = 8;
  call.N = 3;
  call.K = 64;
  ref::LibraryAlgo algo;
  algo.algo_id = 66;
  algo.split_k = 1;
  algo.stage_k = 128;
  ref::LibraryCall quarter = call;
  quarter.M = 2;
  ASSERT_TRUE(ref::library_refuses(quarter).has_value());  // a share as a call of its own is refused
  std::vector<uint32_t> A(call.M * call.K, 0x38), B(call.K * call.N, 0x40), C(call.M * call.N, 0);  // 1.0, 2.0
  std::vector<uint32_t> want(call.M * call.N), got(call.M * call.N);
  ref::library_gemm(call, algo, A.data(), B.data(), C.data(), want.data());
  library_gemm(LibraryEngine::reference, call, algo, A.data(), B.data(), C.data(), got.data());
  EXPECT_EQ(got, want);
  EXPECT_EQ(want[0], 0x4300u);  // 64 x 1.0 x 2.0 = 128 in bf16
}

TEST(LibraryGemm, RefusedCallsAreRefused) {
  ref::LibraryCall call;
  call.a = call.b = FormatId::e5m2;
  call.M = call.N = 1;
  call.K = 64;
  EXPECT_THROW(library_params(call, {}), std::invalid_argument);
}

// An algorithm the model has no rules for (PyTorch's fp32 decode calls run cuBLASLt's 13) is refused by
// name, in the reference and the kernels alike, not computed with another algorithm's rules.
TEST(LibraryGemm, AlgorithmsWithoutRulesAreRefusedByName) {
  ref::LibraryCall call;
  call.a = call.b = call.c = call.d = FormatId::fp32;
  call.M = call.N = 2;
  call.K = 64;
  ref::LibraryAlgo gemv;
  gemv.algo_id = 13;
  const auto why = ref::model_declines(gemv);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->code, DeclineCode::library_algorithm_without_rules) << why->detail;
  EXPECT_EQ(why->algorithm, 13);
  EXPECT_THROW(ref::plan_library_gemm(call, gemv), std::invalid_argument);
  EXPECT_THROW(library_params(call, gemv), std::invalid_argument);
  for (const int id : ref::modelled_algorithms()) {
    ref::LibraryAlgo known;
    known.algo_id = id;
    EXPECT_FALSE(ref::model_declines(known).has_value()) << id;
  }
}

}  // namespace
}  // namespace mmaemu::kernels
