// The library GEMM model on the GPU. Where the library's kernel is a wgmma chain per consecutive K slice
// from +0 (no FP8 promotion, no tf32 rounding of fp32 operands, no interleaved or tail-first slices) and
// the GPU is that wgmma's architecture, each slice's chains run on the tensor cores (tc's pipelined GEMM
// from a zero accumulator: per output the same instruction sequence as the library's) and the slices'
// reduction and the epilogue run per output on CUDA cores (arith::library_finish, the host engine's
// code). Everything else runs one thread per output through arith/library_dot.hpp, a correctness engine
// like v1: each thread walks its whole K.
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
// Columns [k_first + t * len, k_first + (t + 1) * len) of A [M][K], for t < slices: [slices][M][len].
__global__ void gather_slices_kernel(const uint32_t* __restrict__ a, size_t M, size_t K, size_t k_first, size_t len,
                                     size_t slices, uint32_t* __restrict__ out) {
  const size_t total = slices * M * len, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t t = o / (M * len), m = o / len % M, k = o % len;
    out[o] = a[m * K + k_first + t * len + k];
  }
}

// D from the slices' partials ([slices][M][N] fp32 bits; a slice past them, wholly past K, gives +0).
__global__ void library_finish_kernel(arith::LibraryParams p, size_t outputs, size_t slices,
                                      const uint32_t* __restrict__ partials, const uint32_t* __restrict__ C,
                                      uint32_t* __restrict__ D) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < outputs; o += stride) {
    const auto partial = [&](size_t s) { return s < slices ? arith::f32_of(partials[s * outputs + o]) : 0.0f; };
    D[o] = arith::library_finish(p, partial, C[o]);
  }
}

// The library's instruction at the widest N the call fills (an output's arithmetic does not depend on N).
const ref::InstructionModel& wide_variant(const ref::InstructionModel& main_loop, size_t N) {
  ref::Instruction wide = main_loop.instr;
  wide.n = N >= 256 ? 256 : N >= 128 ? 128 : 64;
  return ref::lookup(main_loop.arch, ref::spell(wide));
}

// Why the slices cannot run on the tensor cores here; empty when they can.
std::optional<std::string> why_not_tensor_cores(const arith::LibraryParams& p, const ref::LibraryCall& call) {
  if (p.simt_fp32 || !p.main_loop) return "an fp32 SIMT kernel";
  if (p.main_loop->instr.family != ref::InstrFamily::wgmma) return "an mma.sync kernel";
  if (p.tf32_rounded) return "fp32 operands rounded to tf32 first";
  if (p.promotion_k) return "FP8 promotion inside the slices";
  if (p.interleave_block || p.residue_first) return "slices that are not consecutive chains";
  const size_t chunk = p.chunk ? p.chunk : call.K;
  if (chunk * p.slices < call.K) return "slices that do not cover K";
  const Backend* tc = find_backend("tc");
  if (!tc) return "no tc backend in this build";
  if (auto why = tc->declines_device_operands()) return *why;
  if (auto why = tc->declines(wide_variant(*p.main_loop, call.N), GemmShape{1, call.M, call.N, std::min(chunk, call.K)}, false))
    return *why;
  return std::nullopt;
}

// Each slice's chain as a tc GEMM from +0 (the whole slices batched, the short last one alone), then
// library_finish per output.
void run_library_on_tensor_cores(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* a,
                                 const uint32_t* b, const uint32_t* c, uint32_t* d) {
  const size_t M = call.M, N = call.N, K = call.K, outputs = M * N;
  const size_t chunk = p.chunk ? p.chunk : K;
  const size_t whole = std::min<size_t>(K / chunk, p.slices), tail = K - whole * chunk;
  const size_t used = whole + (tail ? 1 : 0);
  const Backend& tc = *find_backend("tc");
  const ref::InstructionModel& model = wide_variant(*p.main_loop, N);
  DeviceBuffer<uint32_t> partials(used * outputs), zeros(std::max<size_t>(whole, 1) * outputs);
  zeros.fill_bytes(0);
  auto chains = [&](size_t first_slice, size_t count, size_t len) {
    const size_t k_first = first_slice * chunk;
    DeviceBuffer<uint32_t> gathered;
    const uint32_t* slices_of_a = a;
    if (len != K) {
      gathered = DeviceBuffer<uint32_t>(count * M * len);
      gather_slices_kernel<<<blocks_for(count * M * len, 256), 256>>>(a, M, K, k_first, len, count, gathered.get());
      cuda_check(cudaGetLastError(), "library GEMM: gathering A's slices");
      slices_of_a = gathered.get();
    }
    // B's slices are consecutive rows of B: batch t starts len * N words after batch t - 1.
    GemmProblem problem{&model, GemmShape{count, M, N, len}, slices_of_a, b + k_first * N, zeros.get(),
                        partials.get() + first_slice * outputs, nullptr};
    problem.on_device = true;
    tc.run(problem);
  };
  if (whole) chains(0, whole, chunk);
  if (tail) chains(whole, 1, tail);
  library_finish_kernel<<<blocks_for(outputs, 256), 256>>>(p, outputs, used, partials.get(), c, d);
  cuda_check(cudaGetLastError(), "library GEMM finish launch");
  cuda_check(cudaDeviceSynchronize(), "library GEMM finish");
}

// The tensor cores where they can, else one thread per output.
void run_library_kernel(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* a,
                        const uint32_t* b, const uint32_t* c, uint32_t* d) {
  if (call.M * call.N == 0) return;
  if (!why_not_tensor_cores(p, call))
    run_library_on_tensor_cores(p, call, a, b, c, d);
  else
    run_library_per_output(p, call, a, b, c, d);
}

}  // namespace

std::optional<std::string> library_cuda_tensor_cores_declines(const arith::LibraryParams& p, const ref::LibraryCall& call) {
  return why_not_tensor_cores(p, call);
}

void library_gemm_cuda_device(const arith::LibraryParams& p, const ref::LibraryCall& call, const DeviceMatrix& A,
                              const DeviceMatrix& B, const DeviceMatrix& C, const DeviceOutput& D) {
  DeviceBuffer<uint32_t> a = widen_on_device(A.data, A.bytes, call.M, call.K, A.transposed, "library GEMM: A"),
                         b = widen_on_device(B.data, B.bytes, call.K, call.N, B.transposed, "library GEMM: B"),
                         c = widen_on_device(C.data, C.bytes, call.M, call.N, C.transposed, "library GEMM: C"),
                         d(call.M * call.N);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_kernel(p, call, a.get(), b.get(), c.get(), d.get());
  if (const auto at = first_unwritten_on_device(d.get(), call.M * call.N))
    throw KernelError("library GEMM on CUDA: output (" + std::to_string(*at / call.N) + "," +
                      std::to_string(*at % call.N) + ") left unwritten");
  narrow_on_device(d.get(), call.M, call.N, D.data, D.bytes, D.transposed);
}

void library_gemm_cuda(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                       const uint32_t* B, const uint32_t* C, uint32_t* D) {
  const size_t outputs = call.M * call.N;
  DeviceBuffer<uint32_t> a(call.M * call.K), b(call.K * call.N), c(outputs), d(outputs);
  a.upload(A);
  b.upload(B);
  c.upload(C);
  d.fill_bytes(0xFF);  // poison: every output must be overwritten
  run_library_kernel(p, call, a.get(), b.get(), c.get(), d.get());
  d.download(D);
  check_written(D, GemmShape{1, call.M, call.N, call.K}, 1, "library GEMM: output");
}

std::vector<double> library_gemm_cuda_resident(const ref::LibraryCall& call, const ref::LibraryAlgo& algo,
                                               const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D,
                                               int runs) {
  const arith::LibraryParams p = library_params(call, algo);
  // A matrix in its storage width on the device: the words uploaded, then narrowed there.
  auto resident = [](const uint32_t* host, size_t rows, size_t cols, ref::FormatId f, DeviceBuffer<uint8_t>& out) {
    const int bytes = ref::spec(f).storage_bytes();
    DeviceBuffer<uint32_t> words(rows * cols);
    words.upload(host);
    out = DeviceBuffer<uint8_t>(rows * cols * bytes);
    narrow_on_device(words.get(), rows, cols, out.get(), bytes, false);
    return DeviceMatrix{out.get(), bytes, false};
  };
  DeviceBuffer<uint8_t> a, b, c, d;
  const DeviceMatrix da = resident(A, call.M, call.K, call.a, a), db = resident(B, call.K, call.N, call.b, b),
                     dc = resident(C, call.M, call.N, call.c, c);
  const int d_bytes = ref::spec(call.d).storage_bytes();
  d = DeviceBuffer<uint8_t>(call.M * call.N * d_bytes);
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    library_gemm_cuda_device(p, call, da, db, dc, DeviceOutput{d.get(), d_bytes, false});
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  widen_on_device(d.get(), d_bytes, call.M, call.N, false, "library GEMM: D").download(D);
  return seconds;
}

}  // namespace mmaemu::kernels
