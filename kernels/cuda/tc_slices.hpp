// The library model's main loop on the tensor cores: `count` consecutive slices of K of one GEMM, each
// slice's chain of a wide wgmma from +0, issued as the tc backend's pipelined GEMM issues every chain
// (tc_pipelined.cuh: one instruction per K step in K order on the same accumulator, the last step
// zero-padded past the slice). The operands are device memory in the instruction's storage width, as
// the caller stores them (FP8 promotion: the chain restarts from +0 every 128 products and is added
// into an fp32 sum per output, as cuBLASLt's FP8 kernels do); they are brought K-major here (the kernel's layout) only where they are not
// already K-major rows of whole 16-byte chunks. Queued on the default stream; returns without waiting.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mmaemu/reference/decline.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {

struct TcSlices {
  const void* a = nullptr;  // A [M][K] row-major, or (a_transposed) the row-major storage of A^T: [K][M]
  bool a_transposed = false;
  const void* b = nullptr;  // B [K][N] row-major, or (b_transposed) the row-major storage of B^T: [N][K]
  bool b_transposed = false;
  size_t M = 0, N = 0, K = 0;
  size_t k_first = 0;  // slice t covers K columns [k_first + t * len, k_first + (t + 1) * len)
  size_t len = 0, count = 0;
  size_t promotion_k = 0;  // FP8 promotion: products per chain added into fp32 (0: one chain per slice)
  uint32_t* partials = nullptr;  // [count][M][N]: each slice's accumulator (or promoted sum) bits
};

// Why `model` cannot run slices here (not a wide wgmma with a 32-bit accumulator that this build has a
// pipelined kernel for, a promotion it has no kernel for, or a dimension past the kernel's int
// indices); empty when it can. The GPU's
// architecture is the caller's to check (the tc backend's declines).
Declined tc_slices_declines(const ref::InstructionModel& model, const TcSlices& s);

// The operands' storage width the instruction reads (1, 2 or 4 bytes).
int tc_slices_operand_bytes(const ref::InstructionModel& model);

void tc_run_slices(const ref::InstructionModel& model, const TcSlices& s);

}  // namespace mmaemu::kernels
