// Backend "simt": one thread per output element, grid-stride, the per-element arithmetic of
// arith/emu_dot.hpp on CUDA cores. Operands live on the device as uint32 raw bits, as on the host.
#include <algorithm>
#include <string>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/fma_chain.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_words.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

__global__ void simt_gemm(arith::OpParams p, GemmShape s, size_t steps, const uint32_t* __restrict__ A,
                        const uint32_t* __restrict__ B, const uint32_t* __restrict__ C, uint32_t* __restrict__ D,
                        uint32_t* __restrict__ trace, const uint32_t* __restrict__ SA,
                        const uint32_t* __restrict__ SB, size_t scales) {
  const size_t total = s.batch * s.M * s.N, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t n = o % s.N, m = (o / s.N) % s.M, t = o / (s.N * s.M);
    const uint32_t* a_row = A + (t * s.M + m) * s.K;
    const uint32_t* b_col = B + t * s.K * s.N + n;
    uint32_t* tr = trace ? trace + o * steps : nullptr;
    const uint32_t* sa = scales ? SA + (t * s.M + m) * scales : nullptr;
    const uint32_t* sb = scales ? SB + t * scales * s.N + n : nullptr;
    D[o] = arith::emu_gemm_element(p, a_row, 1, b_col, s.N, s.K, C[o], tr, 1, sa, sb, s.N);
  }
}

// fp64 mma: one thread per output of the IEEE fma chain, two words per element.
__global__ void simt_fma_chain(GemmShape s, size_t k, size_t steps, const uint32_t* __restrict__ A,
                             const uint32_t* __restrict__ B, const uint32_t* __restrict__ C, uint32_t* __restrict__ D,
                             uint32_t* __restrict__ trace) {
  const size_t outputs = s.batch * s.M * s.N, threads = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < outputs; o += threads) {
    const size_t n = o % s.N, m = (o / s.N) % s.M, t = o / (s.N * s.M);
    arith::fma_chain_element(A + 2 * (t * s.M + m) * s.K, 1, B + 2 * (t * s.K * s.N + n), s.N, s.K, k, C + 2 * o,
                             D + 2 * o, trace ? trace + 2 * o * steps : nullptr);
  }
}

class V1Backend final : public Backend {
 public:
  std::string name() const override { return "simt"; }
  std::string description() const override {
    return "CUDA cores, one thread per output, integer arithmetic (the host backend's code on the GPU)";
  }
  Declined declines(const ref::InstructionModel& model, const GemmShape&, bool) const override {
    if (auto why = cuda_device_declines()) return why;
    if (model.fma_chain) return std::nullopt;
    return arith_declines(model);
  }
  Declined declines_device_operands() const override { return std::nullopt; }

  RunInfo run(const GemmProblem& pr) const override {
    if (auto why = declines(*pr.model, pr.shape, pr.trace != nullptr)) throw KernelError("simt: " + why->detail);
    const GemmShape& s = pr.shape;
    const size_t words = pr.model->fma_chain ? 2 : 1;  // per element: fp64 takes two
    const size_t steps = ref::gemm_steps(*pr.model, s.K), outputs = c_count(s), S = scales_per_row(*pr.model, s);
    if (pr.on_device) {  // the problem's arrays are device memory already
      const RunInfo info = launch(pr, pr.A, pr.B, pr.C, pr.D, pr.trace, pr.SA, pr.SB, S);
      if (const auto at = first_unwritten_on_device(pr.D, outputs, words))
        throw KernelError("simt: output " + std::to_string(*at) + " (flat index) left unwritten");
      if (pr.trace && first_unwritten_on_device(pr.trace, outputs * steps, words))
        throw KernelError("simt: an entry of the trace left unwritten");
      return info;
    }
    DeviceBuffer<uint32_t> A(words * a_count(s)), B(words * b_count(s)), C(words * outputs), D(words * outputs),
        T(pr.trace ? words * outputs * steps : 0), SA(s.batch * s.M * S), SB(s.batch * S * s.N);
    A.upload(pr.A);
    B.upload(pr.B);
    C.upload(pr.C);
    if (S) {
      SA.upload(pr.SA);
      SB.upload(pr.SB);
    }
    const RunInfo info = launch(pr, A.get(), B.get(), C.get(), D.get(), pr.trace ? T.get() : nullptr, SA.get(), SB.get(), S);
    D.download(pr.D);
    check_written(pr.D, s, 1, "simt: output", words);
    if (pr.trace) {
      T.download(pr.trace);
      check_written(pr.trace, s, steps, "simt: trace of output", words);
    }
    return info;
  }

 private:
  // Poisons D (and the trace) and runs the kernel on device arrays: every output must be overwritten.
  RunInfo launch(const GemmProblem& pr, const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D,
                 uint32_t* T, const uint32_t* SA, const uint32_t* SB, size_t S) const {
    const GemmShape& s = pr.shape;
    const size_t words = pr.model->fma_chain ? 2 : 1;
    const size_t steps = ref::gemm_steps(*pr.model, s.K), outputs = c_count(s);
    if (outputs) cuda_check(cudaMemset(D, 0xFF, words * outputs * sizeof(uint32_t)), "cudaMemset");
    if (T && outputs) cuda_check(cudaMemset(T, 0xFF, words * outputs * steps * sizeof(uint32_t)), "cudaMemset");
    RunInfo info{name(), 0};
    if (outputs == 0) return info;
    const int threads = 256;
    const size_t blocks = std::min<size_t>((outputs + threads - 1) / threads, size_t{1} << 20);
    EventTimer timer;
    timer.start();
    if (pr.model->fma_chain)
      simt_fma_chain<<<static_cast<unsigned>(blocks), threads>>>(s, static_cast<size_t>(pr.model->instr.k), steps, A, B,
                                                               C, D, T);
    else
      simt_gemm<<<static_cast<unsigned>(blocks), threads>>>(params_from_profile(*pr.model), s, steps, A, B, C, D, T, SA,
                                                          SB, S);
    cuda_check(cudaGetLastError(), "simt kernel launch");
    info.kernel_ms = timer.stop_ms();
    cuda_check(cudaDeviceSynchronize(), "simt kernel");
    return info;
  }
};

}  // namespace

const Backend& simt_backend() {
  static const V1Backend b;
  return b;
}

}  // namespace mmaemu::kernels
