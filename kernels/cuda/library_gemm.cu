// The library GEMM model on the GPU. Where the library's kernel is a wgmma chain per consecutive K slice
// from +0, or FP8 chains promoted into fp32 every 128 products (no tf32 rounding of fp32 operands, no
// interleaved or tail-first slices), and the GPU is that wgmma's architecture, each slice's chains run
// on the tensor cores (tc's pipelined GEMM, tc_slices.hpp: per output the same instruction sequence as
// the library's) on the operands as the caller stores them, and the slices' reduction and the epilogue
// run per output on CUDA cores (arith::library_finish, the host engine's code), reading C and writing D
// in their storage widths. Everything else runs one thread per output through arith/library_dot.hpp, a
// correctness engine like simt: each thread walks its whole K. Callers with host words go through the
// same device path.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "kernels/arith/library_dot.hpp"
#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_words.hpp"
#include "kernels/cuda/scratch_buffer.hpp"
#include "kernels/cuda/tc_slices.hpp"
#include "kernels/library/library_gemm.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {
namespace {

__global__ void library_gemm_kernel(arith::LibraryParams p, size_t M, size_t N, size_t K,
                                    const uint32_t* __restrict__ A, const uint32_t* __restrict__ B,
                                    const uint32_t* __restrict__ C, uint32_t* __restrict__ D) {
  const size_t total = M * N, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t m = o / N, n = o % N;
    D[o] = arith::library_element(p, A + m * K, B + n, N, K, C[o]);
  }
}

unsigned blocks_for(size_t items, int threads) {
  return static_cast<unsigned>(std::min<size_t>((items + threads - 1) / threads, size_t{1} << 20));
}

void run_library_per_output(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* a,
                        const uint32_t* b, const uint32_t* c, uint32_t* d) {
  const size_t outputs = call.M * call.N;
  if (outputs == 0) return;
  const int threads = 128;
  library_gemm_kernel<<<blocks_for(outputs, threads), threads>>>(p, call.M, call.N, call.K, a, b, c, d);
  cuda_check(cudaGetLastError(), "library GEMM kernel launch");
  cuda_check(cudaDeviceSynchronize(), "library GEMM kernel");
}

// ---- the slices on the tensor cores -------------------------------------------------------------------
// Element `at` of an array of 1-, 2- or 4-byte elements, as a word, and back.
__device__ __forceinline__ uint32_t load_stored(const void* base, int bytes, size_t at) {
  return bytes == 1 ? static_cast<const uint8_t*>(base)[at]
         : bytes == 2 ? static_cast<const uint16_t*>(base)[at]
                      : static_cast<const uint32_t*>(base)[at];
}
__device__ __forceinline__ void store_stored(void* base, int bytes, size_t at, uint32_t bits) {
  if (bytes == 1) static_cast<uint8_t*>(base)[at] = static_cast<uint8_t>(bits);
  else if (bytes == 2) static_cast<uint16_t*>(base)[at] = static_cast<uint16_t>(bits);
  else static_cast<uint32_t*>(base)[at] = bits;
}

// D from the slices' partials ([slices][M][N] fp32 bits; a slice past them, wholly past K, gives +0)
// and C, both as the caller stores them. A partial still holding the poison (all ones: never a result,
// NaN results are canonical) was left unwritten by the slices' kernel: its output's index goes to
// `unwritten` (the least such). kFp32: C and D are fp32, known at compile time (the general epilogue's
// conversions made the kernel compute-bound: 80% of the SMs' issue for 4096^2 outputs on an H100).
template <bool kFp32>
__global__ void library_finish_kernel(arith::LibraryParams p, size_t M, size_t N, size_t slices,
                                      const uint32_t* __restrict__ partials, DeviceMatrix C, DeviceOutput D,
                                      unsigned long long* unwritten) {
  // Rows along y, columns along x: no 64-bit division per output.
  const size_t outputs = M * N;
  for (size_t m = blockIdx.y; m < M; m += gridDim.y)
    for (size_t n = blockIdx.x * size_t{blockDim.x} + threadIdx.x; n < N; n += size_t{gridDim.x} * blockDim.x) {
      const size_t o = m * N + n;
      bool poisoned = false;
      const auto partial = [&](size_t s) {
        if (s >= slices) return 0.0f;
        const uint32_t bits = partials[s * outputs + o];
        poisoned |= bits == 0xFFFFFFFFu;
        return arith::f32_of(bits);
      };
      const uint32_t c = load_stored(C.data, kFp32 ? 4 : C.bytes, C.transposed ? n * M + m : o);
      const uint32_t d = kFp32 ? arith::library_finish(p, partial, c, arith::fmt_params(arith::Fmt::fp32),
                                                       arith::fmt_params(arith::Fmt::fp32))
                               : arith::library_finish(p, partial, c);
      store_stored(D.data, kFp32 ? 4 : D.bytes, D.transposed ? n * M + m : o, d);
      if (poisoned) atomicMin(unwritten, static_cast<unsigned long long>(o));
    }
}

// The library's instruction at the widest N the call fills (an output's arithmetic does not depend on
// N); with FP8 promotion at most 128, where tc has its promoting kernels.
const ref::InstructionModel& wide_variant(const arith::LibraryParams& p, size_t N) {
  ref::Instruction wide = p.main_loop->instr;
  wide.n = N >= 256 && !p.promotion_k ? 256 : N >= 128 ? 128 : 64;
  return ref::lookup(p.main_loop->arch, ref::spell(wide));
}

// The slices' geometry: `whole` slices of `chunk`, then a shorter `tail` (K - whole * chunk) when K is
// not a multiple.
struct SliceGeometry {
  size_t chunk, whole, tail;
  size_t used() const { return whole + (tail ? 1 : 0); }
};
SliceGeometry slice_geometry(const arith::LibraryParams& p, const ref::LibraryCall& call) {
  const size_t chunk = p.chunk ? p.chunk : call.K;
  const size_t whole = chunk ? std::min<size_t>(call.K / chunk, p.slices) : 0;
  return {chunk, whole, call.K - whole * chunk};
}

TcSlices slices_of(const arith::LibraryParams& p, const ref::LibraryCall& call, const SliceGeometry& g,
                   const DeviceMatrix& A, const DeviceMatrix& B, uint32_t* partials) {
  TcSlices s;
  s.promotion_k = p.promotion_k;
  s.a = A.data;
  s.a_transposed = A.transposed;
  s.b = B.data;
  s.b_transposed = B.transposed;
  s.M = call.M;
  s.N = call.N;
  s.K = call.K;
  s.len = g.chunk;
  s.count = g.whole;
  s.partials = partials;
  return s;
}

// Why the slices cannot run on the tensor cores here; empty when they can.
Declined why_not_tensor_cores(const arith::LibraryParams& p, const ref::LibraryCall& call) {
  const auto other_path = [](const char* why) { return decline(DeclineCode::other_path, why); };
  if (p.simt_fp32 || !p.main_loop) return other_path("an fp32 SIMT kernel");
  if (p.main_loop->instr.family != ref::InstrFamily::wgmma) return other_path("an mma.sync kernel");
  if (p.tf32_rounded) return other_path("fp32 operands rounded to tf32 first");
  if (p.interleave_block || p.residue_first) return other_path("slices that are not consecutive chains");
  const SliceGeometry g = slice_geometry(p, call);
  if (g.chunk * p.slices < call.K) return other_path("slices that do not cover K");
  const Backend* tc = find_backend("tc");
  if (!tc) return decline(DeclineCode::not_built, "no tc backend in this build");
  const ref::InstructionModel& model = wide_variant(p, call.N);
  // The tc backend's own judgement (this GPU's architecture, the model's block its own) for one slice.
  if (auto why = tc->declines(model, GemmShape{1, call.M, call.N, std::min(g.chunk, call.K)}, false)) return why;
  const int bytes = tc_slices_operand_bytes(model);
  if (ref::spec(call.a).storage_bytes() != bytes || ref::spec(call.b).storage_bytes() != bytes)
    return decline(DeclineCode::other_path, "operands stored in another width than " + model.instr.name + " reads");
  if (ref::spec(call.c).storage_bytes() > 4 || ref::spec(call.d).storage_bytes() > 4) return other_path("C or D wider than 32 bits");
  if (auto why = tc_slices_declines(model, slices_of(p, call, g, {}, {}, nullptr))) return why;
  return std::nullopt;
}

// The slices' chains on the tensor cores into poisoned partials, then library_finish per output.
void run_library_on_tensor_cores(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                                 const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  const size_t outputs = call.M * call.N;
  const SliceGeometry g = slice_geometry(p, call);
  const ref::InstructionModel& model = wide_variant(p, call.N);
  ScratchBuffer<uint32_t> partials(g.used() * outputs);
  ScratchBuffer<unsigned long long> unwritten(1);
  if (g.used())
    cuda_check(cudaMemsetAsync(partials.get(), 0xFF, g.used() * outputs * sizeof(uint32_t), 0), "library GEMM: poison");
  cuda_check(cudaMemsetAsync(unwritten.get(), 0xFF, sizeof(unsigned long long), 0), "library GEMM: poison");
  TcSlices s = slices_of(p, call, g, A, B, partials.get());
  if (g.whole) tc_run_slices(model, s);
  if (g.tail) {
    s.k_first = g.whole * g.chunk;
    s.len = g.tail;
    s.count = 1;
    s.partials = partials.get() + g.whole * outputs;
    tc_run_slices(model, s);
  }
  const dim3 finish_grid(static_cast<unsigned>(std::min<size_t>((call.N + 255) / 256, 64)),
                         static_cast<unsigned>(std::min<size_t>(call.M, 65535)));
  if (p.c.id == arith::Fmt::fp32 && p.d.id == arith::Fmt::fp32)
    library_finish_kernel<true><<<finish_grid, 256>>>(p, call.M, call.N, g.used(), partials.get(), C, D, unwritten.get());
  else
    library_finish_kernel<false><<<finish_grid, 256>>>(p, call.M, call.N, g.used(), partials.get(), C, D, unwritten.get());
  cuda_check(cudaGetLastError(), "library GEMM finish launch");
  unsigned long long first = 0;
  cuda_check(cudaMemcpy(&first, unwritten.get(), sizeof first, cudaMemcpyDeviceToHost), "library GEMM finish");
  if (first != ~0ull)
    throw KernelError("library GEMM on the tensor cores: output (" + std::to_string(first / call.N) + "," +
                      std::to_string(first % call.N) + ") left unwritten by the slices' kernel");
}

// One thread per output on 32-bit words widened from the operands, D narrowed back.
void run_library_per_output_stored(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                                   const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  DeviceBuffer<uint32_t> a = widen_on_device(A.data, A.bytes, call.M, call.K, A.transposed, "library GEMM: A"),
                         b = widen_on_device(B.data, B.bytes, call.K, call.N, B.transposed, "library GEMM: B"),
                         c = widen_on_device(C.data, C.bytes, call.M, call.N, C.transposed, "library GEMM: C"),
                         d(call.M * call.N);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_per_output(p, call, a.get(), b.get(), c.get(), d.get());
  if (const auto at = first_unwritten_on_device(d.get(), call.M * call.N))
    throw KernelError("library GEMM on CUDA: output (" + std::to_string(*at / call.N) + "," +
                      std::to_string(*at % call.N) + ") left unwritten");
  narrow_on_device(d.get(), call.M, call.N, D.data, D.bytes, D.transposed);
}

// A host matrix of words (one per element) on the device in its format's storage width.
struct StoredOnDevice {
  DeviceBuffer<uint8_t> bytes;
  DeviceMatrix view;
};
StoredOnDevice store_on_device(const uint32_t* host, size_t rows, size_t cols, ref::FormatId f) {
  const int width = ref::spec(f).storage_bytes();
  DeviceBuffer<uint32_t> words(rows * cols);
  words.upload(host);
  StoredOnDevice out{DeviceBuffer<uint8_t>(rows * cols * width), {}};
  narrow_on_device(words.get(), rows, cols, out.bytes.get(), width, false);
  out.view = DeviceMatrix{out.bytes.get(), width, false};
  return out;
}

}  // namespace

Declined library_cuda_tensor_cores_declines(const arith::LibraryParams& p, const ref::LibraryCall& call) {
  return why_not_tensor_cores(p, call);
}

void library_gemm_cuda_device(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                              const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  if (call.M * call.N == 0) return;
  if (!why_not_tensor_cores(p, call))
    run_library_on_tensor_cores(p, call, A, B, C, D);
  else
    run_library_per_output_stored(p, call, A, B, C, D);
  cuda_check(cudaDeviceSynchronize(), "library GEMM on CUDA");
}

void library_gemm_cuda(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                       const uint32_t* B, const uint32_t* C, uint32_t* D) {
  const size_t outputs = call.M * call.N;
  const StoredOnDevice a = store_on_device(A, call.M, call.K, call.a), b = store_on_device(B, call.K, call.N, call.b),
                       c = store_on_device(C, call.M, call.N, call.c);
  const int d_bytes = ref::spec(call.d).storage_bytes();
  DeviceBuffer<uint8_t> d(outputs * d_bytes);
  d.fill_bytes(0xFF);  // poison, widened to the all-ones word below: every output must be overwritten
  library_gemm_cuda_device(p, call, a.view, b.view, c.view, DeviceOutput{d.get(), d_bytes, false});
  DeviceBuffer<uint32_t> words(outputs);
  widen_result_on_device(d.get(), d_bytes, outputs, words.get());
  words.download(D);
  check_written(D, GemmShape{1, call.M, call.N, call.K}, 1, "library GEMM: output");
}

std::vector<double> library_gemm_cuda_resident(const ref::LibraryCall& call, const ref::LibraryAlgo& algo,
                                               const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D,
                                               int runs) {
  const arith::LibraryParams p = library_params(call, algo);
  const StoredOnDevice a = store_on_device(A, call.M, call.K, call.a), b = store_on_device(B, call.K, call.N, call.b),
                       c = store_on_device(C, call.M, call.N, call.c);
  const int d_bytes = ref::spec(call.d).storage_bytes();
  DeviceBuffer<uint8_t> d(call.M * call.N * d_bytes);
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    library_gemm_cuda_device(p, call, a.view, b.view, c.view, DeviceOutput{d.get(), d_bytes, false});
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  widen_on_device(d.get(), d_bytes, call.M, call.N, false, "library GEMM: D").download(D);
  return seconds;
}

}  // namespace mmaemu::kernels
