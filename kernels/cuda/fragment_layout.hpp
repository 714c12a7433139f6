// Where each matrix element lives in the tensor-core operands, per the PTX ISA:
//   mma.sync m16n8k{8,16,32} ("Matrix Fragments for mma.m16n8k*"): one warp; A in 4 registers, B in 2,
//     C/D in 4 elements; a register holds P = 32 / element-bits consecutive K elements, lowest first.
//     In units of registers the three shapes share one layout (lane = 4 * group + quad).
//   wgmma m64n8 accumulator ("wgmma register fragment"): warp w of the warpgroup owns rows 16w..16w+15
//     and lays them out like the mma.sync accumulator.
//   wgmma A and B in shared memory ("Shared Memory Matrix Layout"), K-major without swizzling: 8 x 16-byte
//     core matrices stored contiguously (128 bytes), the two core matrices along K kLeadingByteOffset
//     apart and successive groups of 8 rows kStrideByteOffset apart.
// A fact of the hardware, so it lives with the kernels (the tc backend feeds the tensor cores with it);
// the recorder (harness/record) uses it too, and the host tests prove the maps are bijections.
#pragma once
#include "kernels/arith/hd.hpp"

namespace mmaemu::kernels::layout {

struct RowCol {
  int row, col;
};

// Element i (0 <= i < P) of A register `reg` (0..3): A is 16 x 8P (row-major M x K).
MMAEMU_HD constexpr RowCol mma_a(int lane, int reg, int i, int P) {
  return {(lane >> 2) + 8 * (reg & 1), ((lane & 3) + 4 * (reg >> 1)) * P + i};
}

// Element i of B register `reg` (0..1): {k, n} of B (8P x 8).
MMAEMU_HD constexpr RowCol mma_b(int lane, int reg, int i, int P) {
  return {((lane & 3) + 4 * reg) * P + i, lane >> 2};
}

// Accumulator element e (0..3) of C/D (16 x 8). With f16 accumulators elements 2r and 2r+1 share
// register r (lower half first).
MMAEMU_HD constexpr RowCol mma_c(int lane, int e) { return {(lane >> 2) + 8 * (e >> 1), (lane & 3) * 2 + (e & 1)}; }

// Accumulator element e (0..3) of thread tid (0..127) for wgmma m64n8 (64 x 8).
MMAEMU_HD constexpr RowCol wgmma_d(int tid, int e) {
  const RowCol in_warp = mma_c(tid & 31, e);
  return {16 * (tid >> 5) + in_warp.row, in_warp.col};
}

inline constexpr int kLeadingByteOffset = 128;  // between the two core matrices along K
inline constexpr int kStrideByteOffset = 256;   // between groups of 8 rows (M for A, N for B)

// Byte offset of element (row, k) of a K-major operand whose elements are `bytes` wide; a row holds
// 32 bytes of K (one wgmma step) in two 16-byte core-matrix rows.
MMAEMU_HD constexpr int kmajor_offset(int row, int k, int bytes) {
  const int per_core_row = 16 / bytes;
  return (row >> 3) * kStrideByteOffset + (k / per_core_row) * kLeadingByteOffset + (row & 7) * 16 +
         (k % per_core_row) * bytes;
}

}  // namespace mmaemu::kernels::layout
