// How the pipelined wide-wgmma GEMM (tc_pipelined.cuh) describes a K-major operand to the tensor memory
// accelerator: the 3-D tensor map's dimensions, byte strides and box, checked against the hardware's
// rules before the driver sees them. Host code without CUDA, so that the choice is tested on any machine
// (kernels/tests/tma_layout_test.cpp); tma_map.cu hands it to the driver.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/backend.hpp"  // KernelError

namespace mmaemu::kernels {

// `z` matrices (batch entries, or slices of one array) of `rows` rows of `k` elements of `elem_bytes`,
// rows `ld` elements apart, matrices `z_stride` elements apart (unused where z is 1).
struct KMajorOperand {
  const void* data;
  int elem_bytes;
  size_t k, rows, ld, z, z_stride;
};

// Dimensions innermost first: (k, row, z), or (k, z, row) where z_inner (z_stride < ld: slices of one
// row-major array), so that the strides ascend as a tensor map's must. The box: 128 bytes of K (the
// 128-byte swizzle's width) by `box_rows` rows of one z.
struct TmaLayout {
  bool z_inner;
  uint64_t dims[3];
  uint64_t strides[2];  // bytes, of dims 1 and 2
  uint32_t box[3];
};

inline TmaLayout k_major_tma_layout(const KMajorOperand& op, int box_rows) {
  const auto refuse = [](const std::string& why) { throw KernelError("tensor map of a K-major operand: " + why); };
  if (op.elem_bytes != 1 && op.elem_bytes != 2 && op.elem_bytes != 4)
    refuse("elements of " + std::to_string(op.elem_bytes) + " bytes");
  if (box_rows < 1 || box_rows > 256) refuse("a box of " + std::to_string(box_rows) + " rows (1 to 256)");
  if (op.k == 0 || op.rows == 0 || op.z == 0) refuse("an empty operand");
  if (op.ld < op.k) refuse("rows " + std::to_string(op.ld) + " elements apart, shorter than K = " + std::to_string(op.k));
  const uint64_t e = static_cast<uint64_t>(op.elem_bytes);
  const uint64_t z_stride = op.z > 1 ? op.z_stride : op.rows * op.ld;
  if (reinterpret_cast<uintptr_t>(op.data) % 16 != 0) refuse("a start that is not on 16 bytes");
  if (op.ld * e % 16 != 0 || z_stride * e % 16 != 0)
    refuse("strides of " + std::to_string(op.ld * e) + " and " + std::to_string(z_stride * e) +
           " bytes (multiples of 16 only)");
  constexpr uint64_t kMaxDim = uint64_t{1} << 32, kMaxStride = uint64_t{1} << 40;
  if (op.k > kMaxDim || op.rows > kMaxDim || op.z > kMaxDim) refuse("a dimension past 2^32");
  if (op.ld * e >= kMaxStride || z_stride * e >= kMaxStride) refuse("a stride past 2^40 bytes");
  TmaLayout t{};
  t.z_inner = z_stride < op.ld;
  const uint32_t row_box = static_cast<uint32_t>(box_rows), k_box = static_cast<uint32_t>(128 / e);
  if (t.z_inner) {
    t.dims[0] = op.k, t.dims[1] = op.z, t.dims[2] = op.rows;
    t.strides[0] = z_stride * e, t.strides[1] = op.ld * e;
    t.box[0] = k_box, t.box[1] = 1, t.box[2] = row_box;
  } else {
    t.dims[0] = op.k, t.dims[1] = op.rows, t.dims[2] = op.z;
    t.strides[0] = op.ld * e, t.strides[1] = z_stride * e;
    t.box[0] = k_box, t.box[1] = row_box, t.box[2] = 1;
  }
  return t;
}

}  // namespace mmaemu::kernels
