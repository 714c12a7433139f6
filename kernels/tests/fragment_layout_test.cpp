// The fragment maps must be bijections onto their matrices, or some element is never (or twice) fed.
#include "kernels/cuda/fragment_layout.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace mmaemu::kernels::layout {
namespace {

TEST(FragmentLayout, MmaSyncMapsCoverEachElementOnce) {
  for (int P : {1, 2, 4}) {  // tf32, 16-bit, 8-bit operands
    const int K = 8 * P;
    std::set<std::pair<int, int>> a, b, c;
    for (int lane = 0; lane < 32; ++lane) {
      for (int reg = 0; reg < 4; ++reg)
        for (int i = 0; i < P; ++i) {
          const RowCol rc = mma_a(lane, reg, i, P);
          ASSERT_TRUE(rc.row >= 0 && rc.row < 16 && rc.col >= 0 && rc.col < K);
          a.insert({rc.row, rc.col});
        }
      for (int reg = 0; reg < 2; ++reg)
        for (int i = 0; i < P; ++i) {
          const RowCol rc = mma_b(lane, reg, i, P);
          ASSERT_TRUE(rc.row >= 0 && rc.row < K && rc.col >= 0 && rc.col < 8);
          b.insert({rc.row, rc.col});
        }
      for (int e = 0; e < 4; ++e) c.insert({mma_c(lane, e).row, mma_c(lane, e).col});
    }
    EXPECT_EQ(a.size(), size_t(16 * K)) << "P " << P;
    EXPECT_EQ(b.size(), size_t(K * 8)) << "P " << P;
    EXPECT_EQ(c.size(), size_t(16 * 8));
  }
}

TEST(FragmentLayout, MatchesThePtxTablesAtSpotChecks) {
  // m16n8k16 f16: lane 5 (group 1, quad 1) holds a0,a1 = A[1][2..3], a6,a7 = A[9][10..11].
  EXPECT_EQ(mma_a(5, 0, 1, 2).row, 1);
  EXPECT_EQ(mma_a(5, 0, 1, 2).col, 3);
  EXPECT_EQ(mma_a(5, 3, 0, 2).row, 9);
  EXPECT_EQ(mma_a(5, 3, 0, 2).col, 10);
  // m16n8k8 tf32: a2 of lane 5 is A[1][5]; b1 is B[5][1].
  EXPECT_EQ(mma_a(5, 2, 0, 1).col, 5);
  EXPECT_EQ(mma_b(5, 1, 0, 1).row, 5);
  EXPECT_EQ(mma_b(5, 1, 0, 1).col, 1);
  // m16n8k32 fp8: b4 of lane 5 is B[20][1]; c3 of lane 5 is C[9][3].
  EXPECT_EQ(mma_b(5, 1, 0, 4).row, 20);
  EXPECT_EQ(mma_c(5, 3).row, 9);
  EXPECT_EQ(mma_c(5, 3).col, 3);
  // wgmma: thread 37 is warp 1, lane 5.
  EXPECT_EQ(wgmma_d(37, 0).row, 17);
}

TEST(FragmentLayout, WgmmaAccumulatorCoversTheTile) {
  std::set<std::pair<int, int>> d;
  for (int tid = 0; tid < 128; ++tid)
    for (int e = 0; e < 4; ++e) d.insert({wgmma_d(tid, e).row, wgmma_d(tid, e).col});
  EXPECT_EQ(d.size(), size_t(64 * 8));
  EXPECT_EQ(d.rbegin()->first, 63);
}

TEST(FragmentLayout, KMajorSharedLayoutIsDenseAndDisjoint) {
  for (int bytes : {1, 2, 4})
    for (int rows : {8, 64}) {
      const int K = 32 / bytes;
      std::set<int> offsets;
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < K; ++k) {
          const int off = kmajor_offset(r, k, bytes);
          ASSERT_EQ(off % bytes, 0);
          ASSERT_TRUE(off >= 0 && off + bytes <= rows * 32);
          offsets.insert(off);
        }
      EXPECT_EQ(offsets.size(), size_t(rows * K));
    }
  // A core matrix is 8 rows of 16 contiguous bytes.
  EXPECT_EQ(kmajor_offset(1, 0, 2), 16);
  EXPECT_EQ(kmajor_offset(0, 8, 2), kLeadingByteOffset);
  EXPECT_EQ(kmajor_offset(8, 0, 2), kStrideByteOffset);
}

}  // namespace
}  // namespace mmaemu::kernels::layout
