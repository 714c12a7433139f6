// One GEMM output by the scalar arithmetic (arith/emu_dot.hpp, arith/fma_chain.hpp): D and, when the
// problem asks, its trace. The host backend's loop body, and the cpu backend's path for what its lanes
// do not take (whole instructions, or single irregular outputs).
#pragma once
#include <cstddef>

#include "kernels/arith/op_params.hpp"
#include "kernels/backend.hpp"

namespace mmaemu::kernels {

// Output (t, m, n) of a block instruction (not fp64): D[o], trace[o][*].
void scalar_block_output(const GemmProblem& pr, const arith::OpParams& p, size_t t, size_t m, size_t n);

// Output (t, m, n) of an fp64 mma (two words per element).
void scalar_fma_chain_output(const GemmProblem& pr, size_t t, size_t m, size_t n);

}  // namespace mmaemu::kernels
