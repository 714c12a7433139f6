// The "v5" kernel: v4's tiles with the T-FDPA blocks on the fp64 pipe (kernels/arith/wide_block.hpp).
//
// Where v4 spends most of its lane operations (about 180 per multiply-add on an H200: decoding, 64-bit
// integer alignment, branches per term), a block here costs per product one exponent add and max
// (pass 1) and one fp64 fma rounded toward zero, two fp64 adds and two integer operations for the
// sign (pass 2): operands are decoded once per stage into doubles and exponents in shared memory,
// products of them are exact, and truncation to the block's grid is an add rounded toward zero
// (wide_block.hpp says why that is exact), here fused with the product.
//
// Block: a tile of D (of one batch entry), TileShape below: 64 x 64 at 4 x 4 outputs per thread as
// in v4, or one output per thread for few rows. K is staged one instruction step at a time (k <= 32
// elements). An output whose step meets anything but the common case (a NaN or Inf anywhere in the
// stage, a special or zero-only accumulator, no non-zero product, products so small that the profile's
// zero-product exponent could lead the block) runs arith::emu_step on the raw bits from global memory
// for that step instead, so the rules for those cases live in one place.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/op_params.hpp"
#include "kernels/arith/wide_block.hpp"
#include "kernels/cuda/gemm_args.hpp"

namespace mmaemu::kernels::v5 {

// A block's tile of D: kM x kN outputs, kPerM x kPerN of them per thread, thread (ty, tx) owning rows
// ty + kThreadsM * i and columns tx + kThreadsN * j (a warp's columns consecutive: B's reads are
// consecutive words, A's broadcasts). The GEMM shapes take 64 x 64 at 4 x 4 per thread; decode shapes
// (M of one to a few tokens; each output's chain along K is sequential, so outputs are the only
// parallelism) take one output per thread over few rows, so that the grid still fills the GPU.
template <int M_, int N_, int PerM, int PerN>
struct TileShape {
  static constexpr int kM = M_, kN = N_, kPerM = PerM, kPerN = PerN;
  static constexpr int kThreadsM = kM / kPerM, kThreadsN = kN / kPerN, kThreads = kThreadsM * kThreadsN;
  static_assert(kPerM * kPerN <= 32, "an output's uncommon-case flag is a bit of one word");
};
using GemmTile = TileShape<64, 64, 4, 4>;    // 256 threads
using FewRowsTile = TileShape<8, 32, 1, 1>;  // 256 threads: a warp per row
using OneRowTile = TileShape<1, 32, 1, 1>;   // one warp: the few outputs spread over every SM

inline constexpr int kMaxStepK = 32;                // the largest instruction K staged whole
inline constexpr int16_t kZeroExp = -16000;         // a zero operand's exponent: its products never lead
inline constexpr int kNoProduct = -10000;           // a block's largest product exponent below this: none

// A step's raw operands from global memory for arith::emu_step (the uncommon cases): A along a row,
// B down a column, zero past K (the reference's padding).
template <class Operand>
struct GlobalLoad {
  const Operand* a;
  const Operand* b;
  int ldb;
  int valid;
  __device__ void operator()(int i, uint32_t& x, uint32_t& y) const {
    x = i < valid ? static_cast<uint32_t>(a[i]) : 0u;
    y = i < valid ? static_cast<uint32_t>(b[static_cast<size_t>(i) * ldb]) : 0u;
  }
};

// Decodes one operand into the stage's tiles; a NaN or Inf raises the stage's flag.
__device__ __forceinline__ void stage_operand(const arith::FmtParams& f, uint32_t bits, const arith::BlockParams& bp,
                                              double& value, int16_t& exp, int& special) {
  arith::WideOperand w;
  if (!arith::wide_operand(f, bits, bp, w)) {
    special = 1;
    w = {0.0, 0, true};
  }
  value = w.v;
  exp = w.zero ? kZeroExp : static_cast<int16_t>(w.exp);
}

template <class Tile, class Operand, class Acc>
__global__ void __launch_bounds__(Tile::kThreads) wide_gemm(arith::OpParams p, GemmArgs<Operand, Acc> g) {
  constexpr int kTileM = Tile::kM, kTileN = Tile::kN, kPerM = Tile::kPerM, kPerN = Tile::kPerN;
  constexpr int kThreadsM = Tile::kThreadsM, kThreadsN = Tile::kThreadsN;
  // Rows of the A tiles are padded by one element so that the threads staging different rows hit
  // different banks.
  __shared__ double wA[kTileM][kMaxStepK + 1];
  __shared__ double wB[kMaxStepK][kTileN];
  __shared__ int16_t eA[kTileM][kMaxStepK + 1];
  __shared__ int16_t eB[kMaxStepK][kTileN];
  __shared__ int stage_special;
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  const int KI = ip.k, L = bp.L;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kThreadsN + tx;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;

  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;

    uint32_t acc[kPerM][kPerN];
    for (int i = 0; i < kPerM; ++i)
      for (int j = 0; j < kPerN; ++j) {
        const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
        acc[i][j] = m < g.M && n < g.N ? static_cast<uint32_t>(g.C[mn0 + static_cast<size_t>(m) * g.N + n]) : 0u;
      }

    for (int s = 0; s < g.steps; ++s) {
      const int k0 = s * KI;
      __syncthreads();  // the previous stage is read
      if (tid == 0) stage_special = 0;
      __syncthreads();
      int special = 0;
      for (int e = tid; e < kTileM * KI; e += Tile::kThreads) {
        const int r = e / KI, c = e % KI, m = m0 + r, kk = k0 + c;  // A: kTileM x KI
        const uint32_t a = m < g.M && kk < g.K ? static_cast<uint32_t>(A[static_cast<size_t>(m) * g.K + kk]) : 0u;
        stage_operand(ip.a, a, bp, wA[r][c], eA[r][c], special);
      }
      for (int e = tid; e < KI * kTileN; e += Tile::kThreads) {
        const int k = e / kTileN, c = e % kTileN, n = n0 + c, kb = k0 + k;  // B: KI x kTileN, consecutive threads on consecutive n
        const uint32_t b = n < g.N && kb < g.K ? static_cast<uint32_t>(B[static_cast<size_t>(kb) * g.N + n]) : 0u;
        stage_operand(ip.b, b, bp, wB[k][c], eB[k][c], special);
      }
      if (special) stage_special = 1;
      __syncthreads();  // every thread's part of the stage is decoded

      uint32_t in[kPerM][kPerN];  // the step's addends, kept for the outputs that run emu_step
      for (int i = 0; i < kPerM; ++i)
        for (int j = 0; j < kPerN; ++j) in[i][j] = acc[i][j];
      constexpr uint32_t kAllRare = kPerM * kPerN == 32 ? ~0u : (1u << (kPerM * kPerN)) - 1u;
      uint32_t rare = stage_special ? kAllRare : 0u;  // bit i * kPerN + j: that output runs emu_step
      const arith::FmtParams* acc_fmt = s > 0 ? &ip.d : &ip.c;
      for (int b0 = 0; b0 < KI && rare != kAllRare; b0 += L) {
        const int n_blk = arith::imin(L, KI - b0);
        // Pass 1: the largest product exponent of each output's block.
        int emax[kPerM][kPerN];
        for (int i = 0; i < kPerM; ++i)
          for (int j = 0; j < kPerN; ++j) emax[i][j] = 2 * kZeroExp;
#pragma unroll 4
        for (int k = b0; k < b0 + n_blk; ++k) {
          int ea[kPerM], eb[kPerN];
          for (int i = 0; i < kPerM; ++i) ea[i] = eA[ty + kThreadsM * i][k];
          for (int j = 0; j < kPerN; ++j) eb[j] = eB[k][tx + kThreadsN * j];
          for (int i = 0; i < kPerM; ++i)
            for (int j = 0; j < kPerN; ++j) emax[i][j] = max(emax[i][j], ea[i] + eb[j]);
        }
        // The addend, and the outputs this block cannot take. Each output's grid 2^(emax - F) is held as
        // the high word of the rounding constant m = 1.5 * 2^(emax - F + 52) (its low word is 0).
        int m_hi[kPerM][kPerN];
        double sum[kPerM][kPerN];
        for (int i = 0; i < kPerM; ++i)
          for (int j = 0; j < kPerN; ++j) {
            const uint32_t bit = 1u << (i * kPerN + j);
            sum[i][j] = 0;
            m_hi[i][j] = 0;
            const arith::Value c = arith::decode(*acc_fmt, acc[i][j]);
            const bool c_special = c.cls == arith::Cls::nan || c.cls == arith::Cls::inf;
            if (emax[i][j] < kNoProduct || c_special) {
              rare |= bit;
              continue;
            }
            if (c.cls != arith::Cls::zero) {
              emax[i][j] = max(emax[i][j], c.exp);
              const double cv = static_cast<double>(c.sig) * arith::pow2(c.exp - acc_fmt->man_bits);
              sum[i][j] = arith::truncated_term(c.neg ? -cv : cv, emax[i][j] - bp.F, bp);
            }
            // A zero product (or a zero addend) would lead the block only below the fixed exponent.
            if (bp.has_zero_product_exp && emax[i][j] < bp.zero_product_exp) rare |= bit;
            m_hi[i][j] = ((emax[i][j] - bp.F + 52 + 1023) << 20) | (1 << 19);
          }
        // Pass 2: the exact sums of the truncated products. truncated_term's add, fused with the product
        // (exact, so rounding the fused sum toward zero is rounding p + ms): toward zero, ms takes the
        // product's sign (the operands' signs, known before the product); toward -inf, ms = +m. A zero
        // product adds 0.
        const int sign_mask = bp.floor_truncation ? 0 : static_cast<int>(0x80000000u);
#pragma unroll 4
        for (int k = b0; k < b0 + n_blk; ++k) {
          double va[kPerM], vb[kPerN];
          for (int i = 0; i < kPerM; ++i) va[i] = wA[ty + kThreadsM * i][k];
          for (int j = 0; j < kPerN; ++j) vb[j] = wB[k][tx + kThreadsN * j];
          for (int i = 0; i < kPerM; ++i)
            for (int j = 0; j < kPerN; ++j) {
              const int sign = (__double2hiint(va[i]) ^ __double2hiint(vb[j])) & sign_mask;
              const double ms = __hiloint2double(sign | m_hi[i][j], 0);
              sum[i][j] += __fma_rz(va[i], vb[j], ms) - ms;
            }
        }
        // The block's result, rounded once (wide_result: the decision shared with the CPU's check).
        for (int i = 0; i < kPerM; ++i)
          for (int j = 0; j < kPerN; ++j)
            if (!(rare & (1u << (i * kPerN + j)))) acc[i][j] = arith::wide_result(bp, emax[i][j], sum[i][j]);
        acc_fmt = &bp.result;
      }
      for (int i = 0; i < kPerM; ++i)
        for (int j = 0; j < kPerN; ++j) {
          const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
          if (rare & (1u << (i * kPerN + j))) {
            if (m < g.M && n < g.N) {
              const GlobalLoad<Operand> load{A + static_cast<size_t>(m) * g.K + k0, B + static_cast<size_t>(k0) * g.N + n,
                                             g.N, arith::imin(KI, g.K - k0)};
              acc[i][j] = arith::emu_step(p, load, in[i][j], s > 0);
            }
          } else {
            acc[i][j] = arith::to_output(*acc_fmt, acc[i][j], ip.d);
          }
          if (g.trace && m < g.M && n < g.N)
            g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s] = static_cast<Acc>(acc[i][j]);
        }
    }

    for (int i = 0; i < kPerM; ++i)
      for (int j = 0; j < kPerN; ++j) {
        const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
        if (m < g.M && n < g.N) g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc[i][j]);
      }
  }
}

}  // namespace mmaemu::kernels::v5
