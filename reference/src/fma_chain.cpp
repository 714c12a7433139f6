// fp64 mma (DMMA, sm_80 and later): the one tensor-core instruction with IEEE arithmetic. No block,
// no alignment window, no truncation: every product is added by its own fused multiply-add, rounded
// to nearest even, subnormals kept, in k order starting from c (MMA-Sim 2.1.1 models it so, as its
// MMA_FMA). What a model of the arithmetic alone leaves open, the H200's recording settles
// (fixtures/h200-fp64, all four shapes): NaN payloads travel. A step acc' = fma(a, b, acc) returns
// b's NaN if b is one, else acc's, else a's, each quieted (bit 51 set, sign and payload kept); an
// invalid operation on non-NaN operands (inf * 0, inf - inf) returns 0xFFF8000000000000.
#include "mmaemu/reference/fma_chain.hpp"

#include <bit>
#include <cmath>

namespace mmaemu::ref {
namespace {

constexpr uint64_t kQuietBit = uint64_t{1} << 51;

uint64_t load(const uint32_t* words) { return uint64_t{words[0]} | uint64_t{words[1]} << 32; }

void store(uint32_t* words, uint64_t bits) {
  words[0] = static_cast<uint32_t>(bits);
  words[1] = static_cast<uint32_t>(bits >> 32);
}

bool is_nan(uint64_t bits) { return (bits & ~(uint64_t{1} << 63)) > 0x7FF0000000000000ull; }

// One step of the chain, NaN rules included.
uint64_t fma_step(uint64_t a, uint64_t b, uint64_t acc) {
  if (is_nan(b)) return b | kQuietBit;
  if (is_nan(acc)) return acc | kQuietBit;
  if (is_nan(a)) return a | kQuietBit;
  const double r = std::fma(std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(acc));
  return std::isnan(r) ? kFp64DefaultNan : std::bit_cast<uint64_t>(r);
}

}  // namespace

void fma_chain_gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
                    const uint32_t* C, uint32_t* D, uint32_t* trace) {
  const size_t k = static_cast<size_t>(m.instr.k), steps = gemm_steps(m, K);
  for (size_t r = 0; r < M; ++r)
    for (size_t n = 0; n < N; ++n) {
      const size_t o = r * N + n;
      uint64_t acc = load(C + 2 * o);
      for (size_t step = 0; step < steps; ++step) {
        for (size_t kk = step * k; kk < (step + 1) * k; ++kk) {
          // Past K the padding's +0 products: they still turn a -0 accumulator into +0, as in hardware.
          const uint64_t a = kk < K ? load(A + 2 * (r * K + kk)) : 0, b = kk < K ? load(B + 2 * (kk * N + n)) : 0;
          acc = fma_step(a, b, acc);
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
