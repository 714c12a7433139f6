// The tensor-map layouts of the pipelined wide-wgmma GEMM's operands (cuda/tma_layout.hpp): dimensions
// in the order the kernel's coordinates take, strides that ascend, boxes of 128 bytes of K, and a clear
// refusal of what the hardware cannot copy.
#include "kernels/cuda/tma_layout.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace mmaemu::kernels {
namespace {

alignas(16) const uint8_t kBase[16] = {};

void expect_ascending_multiples_of_16(const TmaLayout& t, int elem_bytes) {
  EXPECT_LE(t.dims[0] * elem_bytes, t.strides[0]);  // a row's K fits before the next row
  EXPECT_LT(t.strides[0], t.strides[1]);
  EXPECT_EQ(t.strides[0] % 16, 0u);
  EXPECT_EQ(t.strides[1] % 16, 0u);
  EXPECT_EQ(t.box[0] * static_cast<uint32_t>(elem_bytes), 128u);
}

TEST(TmaLayout, BatchEntriesAreTheOuterDimension) {
  // tc: A of 3 batch entries of 300 x 4096 bf16, rows 4096 elements apart, entries 300 rows apart.
  const TmaLayout t = k_major_tma_layout({kBase, 2, 4096, 300, 4096, 3, 300 * 4096}, 128);
  EXPECT_FALSE(t.z_inner);
  EXPECT_EQ(t.dims[0], 4096u);
  EXPECT_EQ(t.dims[1], 300u);
  EXPECT_EQ(t.dims[2], 3u);
  EXPECT_EQ(t.strides[0], 4096u * 2);
  EXPECT_EQ(t.strides[1], 300u * 4096 * 2);
  EXPECT_EQ(t.box[1], 128u);
  EXPECT_EQ(t.box[2], 1u);
  expect_ascending_multiples_of_16(t, 2);
}

TEST(TmaLayout, SlicesOfOneArrayAreTheMiddleDimension) {
  // The library model's slices read in place: A is 256 x 1024 e4m3, 4 slices of 256 elements along K.
  const TmaLayout t = k_major_tma_layout({kBase, 1, 256, 256, 1024, 4, 256}, 128);
  EXPECT_TRUE(t.z_inner);
  EXPECT_EQ(t.dims[0], 256u);  // K of one slice: the copy's zeros start where the slice ends
  EXPECT_EQ(t.dims[1], 4u);
  EXPECT_EQ(t.dims[2], 256u);
  EXPECT_EQ(t.strides[0], 256u);
  EXPECT_EQ(t.strides[1], 1024u);
  EXPECT_EQ(t.box[1], 1u);
  EXPECT_EQ(t.box[2], 128u);
  expect_ascending_multiples_of_16(t, 1);
}

TEST(TmaLayout, OneMatrixTakesTheOuterOrderWhateverItsStride) {
  // A single slice in place (z_stride = its length, shorter than a row) is still (k, row, z).
  const TmaLayout t = k_major_tma_layout({kBase, 4, 100, 64, 512, 1, 100}, 64);
  EXPECT_FALSE(t.z_inner);
  EXPECT_EQ(t.strides[1], 64u * 512 * 4);
  expect_ascending_multiples_of_16(t, 4);
}

TEST(TmaLayout, RefusesWhatTheHardwareCannotCopy) {
  const auto refused = [](const KMajorOperand& op, int box_rows) {
    try {
      k_major_tma_layout(op, box_rows);
    } catch (const KernelError& e) {
      return std::string(e.what()).find("tensor map of a K-major operand") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused({kBase, 2, 100, 64, 100, 1, 0}, 64));        // rows of 200 bytes
  EXPECT_TRUE(refused({kBase + 8, 2, 64, 64, 64, 1, 0}, 64));      // a start off 16 bytes
  EXPECT_TRUE(refused({kBase, 2, 64, 64, 64, 2, 64 * 64 + 4}, 64)); // entries 8200 bytes apart
  EXPECT_TRUE(refused({kBase, 2, 128, 64, 64, 1, 0}, 64));         // rows shorter than K
  EXPECT_TRUE(refused({kBase, 8, 64, 64, 64, 1, 0}, 64));          // 8-byte elements
  EXPECT_TRUE(refused({kBase, 2, 64, 64, 64, 1, 0}, 512));         // a box of 512 rows
  EXPECT_TRUE(refused({kBase, 2, 0, 64, 64, 1, 0}, 64));           // no K
  EXPECT_FALSE(refused({kBase, 2, 64, 64, 64, 1, 0}, 64));         // and a good one passes
}

}  // namespace
}  // namespace mmaemu::kernels
