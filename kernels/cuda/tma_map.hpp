// Tensor maps (the tensor memory accelerator's descriptors) of the K-major operands the pipelined wide-wgmma
// GEMM reads (tc_pipelined.cuh): boxes of 128 bytes of K by a tile's rows, 128-byte swizzled, zeros past
// the operand's bounds.
#pragma once
#include <cuda.h>

#include <cstddef>

namespace mmaemu::kernels {

// `z` matrices (batch entries, or slices of one array) of `rows` rows of `k` elements of `elem_bytes`,
// rows `ld` elements apart, matrices `z_stride` elements apart. The start and both strides in bytes must
// be multiples of 16.
struct KMajorOperand {
  const void* data;
  int elem_bytes;
  size_t k, rows, ld, z, z_stride;
};

// The map, and whether its coordinates are (k, z, row) (z_stride < ld: slices of one row-major array)
// rather than (k, row, z): a tensor map's strides ascend.
struct TmaMap {
  CUtensorMap map;
  bool z_inner;
};

// KernelError where the driver refuses the map.
TmaMap k_major_tensor_map(const KMajorOperand& op, int box_rows);

}  // namespace mmaemu::kernels
