// Tensor maps (the tensor memory accelerator's descriptors) of the K-major operands the pipelined wide-wgmma
// GEMM reads (tc_pipelined.cuh), laid out by tma_layout.hpp: 128-byte swizzled, zeros past the operand's
// bounds.
#pragma once
#include <cuda.h>

#include "kernels/cuda/tma_layout.hpp"

namespace mmaemu::kernels {

// The map, and whether its coordinates are (k, z, row) rather than (k, row, z) (TmaLayout::z_inner).
struct TmaMap {
  CUtensorMap map;
  bool z_inner;
};

// KernelError where the layout's checks or the driver refuse the map.
TmaMap k_major_tensor_map(const KMajorOperand& op, int box_rows);

}  // namespace mmaemu::kernels
