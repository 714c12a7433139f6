// The arithmetic of fp64 mma (InstructionModel::fma_chain) behind ref::mma and ref::gemm; callers include model.hpp.
#pragma once
#include <cstddef>
#include <cstdint>

#include "mmaemu/reference/model.hpp"

namespace mmaemu::ref {

// The NaN an invalid operation (inf * 0, inf - inf) gives when no operand is NaN: the negative quiet
// NaN with no payload (recorded on an H200).
inline constexpr uint64_t kFp64DefaultNan = 0xFFF8000000000000ull;

// ref::mma and ref::gemm for an fma-chain instruction; arrays of words, two per element.
void fma_chain_mma(const InstructionModel& m, size_t tiles, const uint32_t* A, const uint32_t* B, const uint32_t* C,
                   uint32_t* D);
void fma_chain_gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
                    const uint32_t* C, uint32_t* D, uint32_t* trace);

}  // namespace mmaemu::ref
