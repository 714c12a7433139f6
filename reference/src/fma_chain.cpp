// fp64 mma (DMMA, sm_80 and later): the one tensor-core instruction with IEEE arithmetic. No block,
// no alignment window, no truncation: every product is added by its own fused multiply-add, rounded
// to nearest even, subnormals kept, in k order starting from c. MMA-Sim 2.1.1 models it so (its
// MMA_FMA); reports/h200/fp64-mma holds the H200's recording that settles the rest: the order (c first,
// k ascending) and the NaN a result takes (canonical, whatever NaN went in).
#include "mmaemu/reference/fma_chain.hpp"

#include <bit>
#include <cmath>

namespace mmaemu::ref {
namespace {

double load(const uint32_t* words) { return std::bit_cast<double>(uint64_t{words[0]} | uint64_t{words[1]} << 32); }

void store(uint32_t* words, double x) {
  const uint64_t bits = std::isnan(x) ? kFp64CanonicalNan : std::bit_cast<uint64_t>(x);
  words[0] = static_cast<uint32_t>(bits);
  words[1] = static_cast<uint32_t>(bits >> 32);
}

}  // namespace

void fma_chain_gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
                    const uint32_t* C, uint32_t* D, uint32_t* trace) {
  const size_t k = static_cast<size_t>(m.instr.k), steps = gemm_steps(m, K);
  for (size_t r = 0; r < M; ++r)
    for (size_t n = 0; n < N; ++n) {
      const size_t o = r * N + n;
      double acc = load(C + 2 * o);
      for (size_t step = 0; step < steps; ++step) {
        for (size_t kk = step * k; kk < (step + 1) * k; ++kk) {
          // Past K the padding's +0 products: they still turn a -0 accumulator into +0, as in hardware.
          const double a = kk < K ? load(A + 2 * (r * K + kk)) : 0.0, b = kk < K ? load(B + 2 * (kk * N + n)) : 0.0;
          acc = std::fma(a, b, acc);
        }
        if (trace) store(trace + 2 * (o * steps + step), acc);
      }
      store(D + 2 * o, acc);
    }
}

void fma_chain_mma(const InstructionModel& m, size_t tiles, const uint32_t* A, const uint32_t* B, const uint32_t* C,
                   uint32_t* D) {
  const size_t M = static_cast<size_t>(m.instr.m), N = static_cast<size_t>(m.instr.n),
               K = static_cast<size_t>(m.instr.k);
  for (size_t t = 0; t < tiles; ++t)
    fma_chain_gemm(m, M, N, K, A + 2 * t * M * K, B + 2 * t * K * N, C + 2 * t * M * N, D + 2 * t * M * N, nullptr);
}

}  // namespace mmaemu::ref
