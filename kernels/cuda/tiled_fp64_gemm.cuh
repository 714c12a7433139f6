// The "tiled-fp64" kernel: tiled's tiles with the T-FDPA blocks on the fp64 pipe (kernels/arith/wide_block.hpp).
//
// Where tiled spends most of its lane operations (about 180 per multiply-add on an H200: decoding, 64-bit
// integer alignment, branches per term), a block here costs per product half a packed 16-bit
// add-and-max (pass 1: two rows' exponents in one word) and, in pass 2, one logic operation and one
// fp64 fma rounded down into the output's chain, the logic operation setting the chain's sign to the
// product's (wide_block.hpp's chain_add says why that adds the truncated term, exactly): operands are
// decoded once per stage, without branches, into doubles and exponents in shared memory. The profiles
// tiled_params.cuh lists run with their parameters as constants, so that the per-block work on the
// accumulator (reading it, its term, the conversion of the result) folds to a few operations; what is
// rare (emu_step, the general rounding) is out of line.
//
// Block: a tile of D (of one batch entry), TileShape below: 64 x 64 at 4 x 4 outputs per thread as
// in tiled, or one output per thread for few rows. K is staged one instruction step at a time (k <= 32
// elements), its raw operands loaded as StageLoad says (the next step's while this one computes where
// the registers allow).
// An output whose step meets anything but the common case (a NaN or Inf anywhere in the
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

namespace mmaemu::kernels::tiled_fp64 {

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
  static constexpr bool kSplit = false;
  // Pass 1 reads two rows' exponents in one word where a thread has an even number of rows: word r of
  // a stage column holds row r (low half) and row r + kM / 2 (high half), the rows i and i + kPerM / 2
  // of a thread.
  static constexpr bool kPairedRows = kPerM % 2 == 0;
  static constexpr int kExpRows = kPairedRows ? kM / 2 : kM, kExpHalves = kPairedRows ? 2 : 1;
  // Blocks per SM the registers must allow: two of 256 threads (128 registers a thread), so that a
  // warp waiting on a barrier or a load leaves others to issue.
  static constexpr int kMinBlocks = kThreads >= 256 ? 2 : 1;
  // Registers a thread may spend on loading the next stage while this one computes (stage_load()):
  // sixteen outputs' chains leave four (with eight, the 16-bit kernels spilled, and their stores of
  // the loaded words waited for the loads); one output leaves eight.
  static constexpr int kPrefetchRegs = kPerM * kPerN > 1 ? 4 : 8;
};
// One row (a decode shape of one token), kLanes lanes per output: each lane takes every kLanes-th
// product of a block, and the block's exponent and exact sum are gathered over the output's lanes by
// shuffles (wide_split_row). A thread per output would leave most of the GPU idle: 4096 outputs are
// 128 warps.
template <int N_, int Lanes>
struct SplitRowShape {
  static constexpr bool kSplit = true;
  static constexpr int kM = 1, kN = N_, kLanes = Lanes, kThreads = kN * kLanes;
  static constexpr int kThreadsM = 1, kThreadsN = kThreads;  // the launch's block(kThreadsN, kThreadsM)
  static constexpr int kMinBlocks = 1;
  static_assert(32 % kLanes == 0 && kThreads % 32 == 0, "an output's lanes lie in one warp");
};

using GemmTile = TileShape<64, 64, 4, 4>;    // 256 threads
using FewRowsTile = TileShape<8, 32, 1, 1>;  // 256 threads: a warp per row
using SplitRowTile = SplitRowShape<16, 8>;   // 128 threads: 16 outputs of one row, 8 lanes each

// How a stage's raw operands come from global memory: element by element as the stage is decoded (the
// generic kernel, whose K is known only at run time), all of the stage into registers before it is
// decoded (one wait for the loads, not one for each), or all of the next stage while this one computes.
enum class StageLoad { each, whole, ahead };

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

// emu_step for one output's step, out of line: the uncommon cases are rare, and inlined at every
// output of a thread's tile their code and registers crowded the common path's (which spilled). The
// parameters are not passed from the caller: for a FixedParams kernel the callee makes its own
// constants (a reference would let the call write the caller's, as far as the compiler knows, and
// turn every later use of them into a load); a generic kernel passes the address of its parameter
// (a __grid_constant__, so that no copy is made).
template <class Spec, class Operand>
__device__ __noinline__ uint32_t uncommon_step(const arith::OpParams* generic, GlobalLoad<Operand> load, uint32_t acc,
                                               bool later) {
  if constexpr (Spec::kFixed) {
    constexpr arith::OpParams kParams = Spec::params();
    return arith::emu_step(kParams, load, acc, later);
  } else {
    return arith::emu_step(*generic, load, acc, later);
  }
}
template <class Spec>
__device__ __forceinline__ const arith::OpParams* generic_params(const arith::OpParams& p) {
  if constexpr (Spec::kFixed) {
    return nullptr;
  } else {
    return &p;
  }
}

// Decodes one operand into the stage's tiles; a NaN or Inf raises the stage's flag.
__device__ __forceinline__ void stage_operand(const arith::FmtParams& f, uint32_t bits, const arith::BlockParams& bp,
                                              double& value, int16_t& exp, int& special) {
  arith::WideOperand w;
  if (!arith::wide_operand(f, bits, bp, w)) special = 1;  // what is staged then is never read
  value = w.v;
  exp = w.zero ? kZeroExp : static_cast<int16_t>(w.exp);
}

// An exponent in both 16-bit halves of a word (B's stage, for pass 1's packed add-and-max).
__device__ __forceinline__ uint32_t both_halves(int16_t e) {
  const uint32_t h = static_cast<uint16_t>(e);
  return h | (h << 16);
}

// The pieces of a block every layout of its products shares (wide_tiles, wide_split_row).
//
// The format of the addend of block b0 of step s: C's in the first step, D's in later ones, the
// blocks' result format after a step's first block. Chosen by value, not through a pointer, so that
// with constant parameters it is a constant (a pointer kept the parameters in local memory and
// decoded the accumulator with run-time shifts).
__device__ __forceinline__ arith::FmtParams addend_format(const arith::InstrParams& ip, int s, int b0) {
  return b0 > 0 ? ip.block.result : s > 0 ? ip.d : ip.c;
}

// The addend's part: raises emax (the largest product exponent) to the addend's, and starts the
// block's chain (wide_block.hpp) at its origin M = 1.5 * 2^(emax - F + 52) plus the addend's term
// (positive: the chain's sign is the last product's, and none has come yet). False where the block is
// not the common case: no non-zero product, a NaN or Inf addend, or a zero product (or addend) that
// could lead the block, which happens only below the profile's fixed zero-product exponent.
__device__ __forceinline__ bool block_addend(const arith::BlockParams& bp, const arith::FmtParams& acc_fmt, uint32_t acc,
                                             int emax, double& chain) {
  bool special, zero;
  int exp;
  double value;
  if (acc_fmt.id == arith::Fmt::fp32) {
    // fp32 read directly (Value's exponent, the conversion to double exact for every finite pattern):
    // the accumulator of nearly every profile, and decode() with its classes cost more than the
    // block's products.
    const int field = static_cast<int>((acc >> 23) & 0xFFu);
    special = field == 0xFF;
    zero = (acc << 1) == 0;
    exp = max(field, 1) - 127;
    value = static_cast<double>(__uint_as_float(acc));
  } else {
    const arith::Value c = arith::decode(acc_fmt, acc);
    special = c.cls == arith::Cls::nan || c.cls == arith::Cls::inf;
    zero = c.cls == arith::Cls::zero;
    exp = c.exp;
    const double mag = static_cast<double>(c.sig) * arith::pow2(c.exp - acc_fmt.man_bits);
    value = c.neg ? -mag : mag;
  }
  // Without branches: a zero addend adds nothing to the chain and does not raise emax.
  const bool common = emax >= kNoProduct && !special;
  if (!zero) emax = max(emax, exp);
  chain = arith::chain_add(bp, arith::chain_origin(bp, emax), value, 1.0);
  return common && !(bp.has_zero_product_exp && emax < bp.zero_product_exp);
}

// The chain's origin and the block's exponent, read back from the chain itself: it never leaves its
// origin's binade, so its exponent field is the origin's (and the origin's fraction is one half), and
// neither needs registers through the block.
// The chain may carry a sign (wide_tiles' running chains); both ignore it.
__device__ __forceinline__ double chain_origin(double chain) {
  return __hiloint2double((__double2hiint(chain) & 0x7FF00000) | (1 << 19), 0);
}
__device__ __forceinline__ int block_exp(const arith::BlockParams& bp, double chain) {
  return ((__double2hiint(chain) >> 20) & 0x7FF) - 1023 - 52 + bp.F;
}

// The body of wide_gemm; p is the kernel's params, or the same values as compile-time constants.
// kLoad: how the raw operands of a stage are loaded (StageLoad, chosen by stage_load below).
template <class Tile, class Spec, StageLoad kLoad, class Operand, class Acc>
__device__ __forceinline__ void wide_tiles(const arith::OpParams& p, const GemmArgs<Operand, Acc>& g) {
  constexpr int kTileM = Tile::kM, kTileN = Tile::kN, kPerM = Tile::kPerM, kPerN = Tile::kPerN;
  constexpr int kThreadsM = Tile::kThreadsM, kThreadsN = Tile::kThreadsN, kThreads = Tile::kThreads;
  // Rows of the A tiles are padded by one element so that the threads staging different rows hit
  // different banks.
  __shared__ double wA[kTileM][kMaxStepK + 1];
  __shared__ double wB[kMaxStepK][kTileN];
  __shared__ __align__(4) int16_t eA[Tile::kExpRows][kMaxStepK + 1][Tile::kExpHalves];
  __shared__ uint32_t eB[kMaxStepK][kTileN];  // both_halves
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  const int KI = ip.k, L = bp.L;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kThreadsN + tx;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;
  // The raw operands of one stage in registers: element e = tid + kThreads * t of A's kTileM x KI
  // (row-major) and of B's KI x kTileN (consecutive threads on consecutive n).
  constexpr bool kRegs = kLoad != StageLoad::each;
  constexpr int kARegs = kRegs ? (kTileM * kMaxStepK + kThreads - 1) / kThreads : 1;
  constexpr int kBRegs = kRegs ? (kMaxStepK * kTileN + kThreads - 1) / kThreads : 1;
  uint32_t rawA[kARegs], rawB[kBRegs];
  // One block per step (KI <= L, every profile with constant parameters): an output's addend is then
  // untouched until its step's end, and the outputs sent to emu_step need no copy of it.
  const bool one_block = KI <= L;

  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;
    // The raw bits of element e of A's and of B's stage at k0 (0 outside the matrices: the reference's
    // padding).
    const auto a_bits = [&](int e, int k0) {
      const int m = m0 + e / KI, kk = k0 + e % KI;
      return m < g.M && kk < g.K ? static_cast<uint32_t>(A[static_cast<size_t>(m) * g.K + kk]) : 0u;
    };
    const auto b_bits = [&](int e, int k0) {
      const int n = n0 + e % kTileN, kb = k0 + e / kTileN;
      return n < g.N && kb < g.K ? static_cast<uint32_t>(B[static_cast<size_t>(kb) * g.N + n]) : 0u;
    };
    const auto fetch = [&](int k0) {
#pragma unroll
      for (int t = 0; t < kARegs; ++t) {
        const int e = tid + kThreads * t;
        if (kThreads * t >= kTileM * KI) break;
        rawA[t] = e < kTileM * KI ? a_bits(e, k0) : 0u;
      }
#pragma unroll
      for (int t = 0; t < kBRegs; ++t) {
        const int e = tid + kThreads * t;
        if (kThreads * t >= KI * kTileN) break;
        rawB[t] = e < KI * kTileN ? b_bits(e, k0) : 0u;
      }
    };

    uint32_t acc[kPerM][kPerN];
#pragma unroll
    for (int i = 0; i < kPerM; ++i)
#pragma unroll
      for (int j = 0; j < kPerN; ++j) {
        const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
        acc[i][j] = m < g.M && n < g.N ? static_cast<uint32_t>(g.C[mn0 + static_cast<size_t>(m) * g.N + n]) : 0u;
      }

    if constexpr (kLoad == StageLoad::ahead) fetch(0);
    for (int s = 0; s < g.steps; ++s) {
      const int k0 = s * KI;
      __syncthreads();  // the previous stage is read
      int special = 0;
      const auto stage_a = [&](int e, uint32_t bits) {
        const int r = e / KI, c = e % KI;
        int16_t ex;
        stage_operand(ip.a, bits, bp, wA[r][c], ex, special);
        if constexpr (Tile::kPairedRows)
          eA[r % (kTileM / 2)][c][r / (kTileM / 2)] = ex;
        else
          eA[r][c][0] = ex;
      };
      const auto stage_b = [&](int e, uint32_t bits) {
        const int k = e / kTileN, c = e % kTileN;
        int16_t ex;
        stage_operand(ip.b, bits, bp, wB[k][c], ex, special);
        eB[k][c] = both_halves(ex);
      };
      if constexpr (kLoad == StageLoad::whole) fetch(k0);
      if constexpr (kRegs) {
#pragma unroll
        for (int t = 0; t < kARegs; ++t) {
          const int e = tid + kThreads * t;
          if (kThreads * t >= kTileM * KI) break;
          if (e < kTileM * KI) stage_a(e, rawA[t]);
        }
#pragma unroll
        for (int t = 0; t < kBRegs; ++t) {
          const int e = tid + kThreads * t;
          if (kThreads * t >= KI * kTileN) break;
          if (e < KI * kTileN) stage_b(e, rawB[t]);
        }
      } else {
        for (int e = tid; e < kTileM * KI; e += kThreads) stage_a(e, a_bits(e, k0));
        for (int e = tid; e < KI * kTileN; e += kThreads) stage_b(e, b_bits(e, k0));
      }
      if constexpr (kLoad == StageLoad::ahead)
        if (s + 1 < g.steps) fetch(k0 + KI);  // in flight while this stage computes
      const bool stage_special = __syncthreads_or(special) != 0;  // every thread's part of the stage is decoded

      uint32_t in[kPerM][kPerN];  // the step's addends, kept for the outputs that run emu_step
#pragma unroll
      for (int i = 0; i < kPerM; ++i)
#pragma unroll
        for (int j = 0; j < kPerN; ++j) in[i][j] = one_block ? 0u : acc[i][j];
      constexpr uint32_t kAllRare = kPerM * kPerN == 32 ? ~0u : (1u << (kPerM * kPerN)) - 1u;
      uint32_t rare = stage_special ? kAllRare : 0u;  // bit i * kPerN + j: that output runs emu_step
      for (int b0 = 0; b0 < KI && rare != kAllRare; b0 += L) {
        const arith::FmtParams acc_fmt = addend_format(ip, s, b0);
        const int n_blk = arith::imin(L, KI - b0);
        // Pass 1: the largest product exponent of each output's block.
        int emax[kPerM][kPerN];
        if constexpr (Tile::kPairedRows) {
          constexpr int kPairs = kPerM / 2;
          uint32_t emax2[kPairs][kPerN];
#pragma unroll
          for (int i = 0; i < kPairs; ++i)
#pragma unroll
            for (int j = 0; j < kPerN; ++j) emax2[i][j] = both_halves(2 * kZeroExp);
#pragma unroll 4
          for (int k = b0; k < b0 + n_blk; ++k) {
            uint32_t ea[kPairs], eb[kPerN];
#pragma unroll
            for (int i = 0; i < kPairs; ++i) ea[i] = *reinterpret_cast<const uint32_t*>(eA[ty + kThreadsM * i][k]);
#pragma unroll
            for (int j = 0; j < kPerN; ++j) eb[j] = eB[k][tx + kThreadsN * j];
#pragma unroll
            for (int i = 0; i < kPairs; ++i)
#pragma unroll
              for (int j = 0; j < kPerN; ++j) emax2[i][j] = __viaddmax_s16x2(ea[i], eb[j], emax2[i][j]);
          }
#pragma unroll
          for (int i = 0; i < kPairs; ++i)
#pragma unroll
            for (int j = 0; j < kPerN; ++j) {
              emax[i][j] = static_cast<int16_t>(emax2[i][j] & 0xFFFFu);
              emax[i + kPairs][j] = static_cast<int>(emax2[i][j]) >> 16;
            }
        } else {
#pragma unroll
          for (int i = 0; i < kPerM; ++i)
#pragma unroll
            for (int j = 0; j < kPerN; ++j) emax[i][j] = 2 * kZeroExp;
#pragma unroll 4
          for (int k = b0; k < b0 + n_blk; ++k) {
            int ea[kPerM], eb[kPerN];
#pragma unroll
            for (int i = 0; i < kPerM; ++i) ea[i] = eA[ty + kThreadsM * i][k][0];
#pragma unroll
            for (int j = 0; j < kPerN; ++j) eb[j] = static_cast<int16_t>(eB[k][tx + kThreadsN * j] & 0xFFFFu);
#pragma unroll
            for (int i = 0; i < kPerM; ++i)
#pragma unroll
              for (int j = 0; j < kPerN; ++j) emax[i][j] = max(emax[i][j], ea[i] + eb[j]);
          }
        }
        // The addend, and the outputs this block cannot take; then pass 2: each output's chain of its
        // truncated products.
        double chain[kPerM][kPerN];
#pragma unroll
        for (int i = 0; i < kPerM; ++i)
#pragma unroll
          for (int j = 0; j < kPerN; ++j)
            if (!block_addend(bp, acc_fmt, acc[i][j], emax[i][j], chain[i][j])) rare |= 1u << (i * kPerN + j);
        // The chain of each output (wide_block.hpp's chain_add), kept as T = sigma * S with sigma the
        // sign of its last product: entering product k, T's sign is set to the product's by flipping it
        // where the signs of a and of b changed since k - 1 (flip_a, flip_b: once per operand), so that
        // each product costs one logic operation and one fma rounded down, T' = sigma_k * S'.
        // Truncation toward -inf needs no signs: S' = S + a * b rounded down.
        uint32_t sign_a[kPerM], sign_b[kPerN];  // the operands' sign bits at k - 1 (0 before the first)
#pragma unroll
        for (int i = 0; i < kPerM; ++i) sign_a[i] = 0;
#pragma unroll
        for (int j = 0; j < kPerN; ++j) sign_b[j] = 0;
#pragma unroll
        for (int k = b0; k < b0 + n_blk; ++k) {
          double va[kPerM], vb[kPerN];
          uint32_t flip_a[kPerM], flip_b[kPerN];
#pragma unroll
          for (int i = 0; i < kPerM; ++i) {
            va[i] = wA[ty + kThreadsM * i][k];
            const uint32_t hi = static_cast<uint32_t>(__double2hiint(va[i]));
            flip_a[i] = (hi ^ sign_a[i]) & 0x80000000u;
            sign_a[i] = hi;
          }
#pragma unroll
          for (int j = 0; j < kPerN; ++j) {
            vb[j] = wB[k][tx + kThreadsN * j];
            const uint32_t hi = static_cast<uint32_t>(__double2hiint(vb[j]));
            flip_b[j] = (hi ^ sign_b[j]) & 0x80000000u;
            sign_b[j] = hi;
          }
#pragma unroll
          for (int i = 0; i < kPerM; ++i)
#pragma unroll
            for (int j = 0; j < kPerN; ++j) {
              double& t = chain[i][j];
              if (bp.floor_truncation) {
                t = __fma_rd(va[i], vb[j], t);
              } else {
                const int hi = __double2hiint(t) ^ static_cast<int>(flip_a[i] ^ flip_b[j]);
                t = __fma_rd(fabs(va[i]), fabs(vb[j]), __hiloint2double(hi, __double2loint(t)));
              }
            }
        }
        // The block's result, rounded once: wide_result's pieces (the decision shared with the CPU's
        // check), the conversion for every output without branches, so that the sixteen interleave,
        // then the general rounding, out of line, for any whose sum is past fp32's range.
        uint32_t unfit = 0;
#pragma unroll
        for (int i = 0; i < kPerM; ++i)
#pragma unroll
          for (int j = 0; j < kPerN; ++j) {
            const uint32_t bit = 1u << (i * kPerN + j);
            const double sum = fabs(chain[i][j]) - chain_origin(chain[i][j]);
            if (arith::wide_result_converts(bp)) {
              const uint32_t converted = arith::wide_result_converted(bp, sum);
              if (!arith::wide_result_fits(sum)) unfit |= bit;
              acc[i][j] = rare & bit ? acc[i][j] : converted;  // an uncommon output keeps its addend for emu_step
            } else if (!(rare & bit)) {
              acc[i][j] = arith::wide_result_rounded(bp, block_exp(bp, chain[i][j]), sum);
            }
          }
        unfit &= ~rare;
        if (unfit) {
#pragma unroll
          for (int i = 0; i < kPerM; ++i)
#pragma unroll
            for (int j = 0; j < kPerN; ++j)
              if (unfit & (1u << (i * kPerN + j)))
                acc[i][j] = arith::wide_result_rounded_cold(bp, block_exp(bp, chain[i][j]),
                                                            fabs(chain[i][j]) - chain_origin(chain[i][j]));
        }
      }
      // The step's end: the uncommon outputs by emu_step (skipped as a whole where there are none),
      // the others converted to D's format, and the trace.
      if (rare) {
#pragma unroll
        for (int i = 0; i < kPerM; ++i)
#pragma unroll
          for (int j = 0; j < kPerN; ++j) {
            const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
            if ((rare & (1u << (i * kPerN + j))) && m < g.M && n < g.N) {
              const GlobalLoad<Operand> load{A + static_cast<size_t>(m) * g.K + k0, B + static_cast<size_t>(k0) * g.N + n,
                                             g.N, arith::imin(KI, g.K - k0)};
              acc[i][j] = uncommon_step<Spec>(generic_params<Spec>(p), load, one_block ? acc[i][j] : in[i][j], s > 0);
            }
          }
      }
#pragma unroll
      for (int i = 0; i < kPerM; ++i)
#pragma unroll
        for (int j = 0; j < kPerN; ++j)
          if (!(rare & (1u << (i * kPerN + j)))) acc[i][j] = arith::to_output(bp.result, acc[i][j], ip.d);
      if (g.trace) {
#pragma unroll
        for (int i = 0; i < kPerM; ++i)
#pragma unroll
          for (int j = 0; j < kPerN; ++j) {
            const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
            if (m < g.M && n < g.N) g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s] = static_cast<Acc>(acc[i][j]);
          }
      }
    }

#pragma unroll
    for (int i = 0; i < kPerM; ++i)
#pragma unroll
      for (int j = 0; j < kPerN; ++j) {
        const int m = m0 + ty + kThreadsM * i, n = n0 + tx + kThreadsN * j;
        if (m < g.M && n < g.N) g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc[i][j]);
      }
  }
}

// The body of wide_gemm for SplitRowShape: output o of the block is column n0 + o of row blockIdx.y,
// its lanes those of the warp with the same lane % (32 / kLanes) (q = lane / (32 / kLanes) the lane's
// share: products b0 + q, b0 + q + kLanes, ...). Every lane of an output holds its accumulator; the
// uncommon cases run emu_step on the output's first lane, whose result the others take.
template <class Tile, class Spec, class Operand, class Acc>
__device__ __forceinline__ void wide_split_row(const arith::OpParams& p, const GemmArgs<Operand, Acc>& g) {
  constexpr int kN = Tile::kN, kLanes = Tile::kLanes, kThreads = Tile::kThreads, kPerWarp = 32 / kLanes;
  __shared__ double wA[kMaxStepK];
  __shared__ int16_t eA[kMaxStepK];
  __shared__ double wB[kMaxStepK][kN + 1];
  __shared__ int16_t eB[kMaxStepK][kN + 1];
  const arith::InstrParams& ip = p.instr;
  const arith::BlockParams& bp = ip.block;
  const int KI = ip.k, L = bp.L;
  const int tid = threadIdx.x, lane = tid % 32, q = lane / kPerWarp, first = lane % kPerWarp;
  const int o = (tid / 32) * kPerWarp + first, m = blockIdx.y, n0 = blockIdx.x * kN, n = n0 + o;
  const bool valid = m < g.M && n < g.N;
  const bool one_block = KI <= L;
  // The next stage's raw operands, loaded while this one computes: element e = tid + kThreads * t of
  // B's KI x kN (consecutive threads on consecutive n) and of A's KI.
  constexpr int kBRegs = (kMaxStepK * kN + kThreads - 1) / kThreads;
  uint32_t rawA = 0, rawB[kBRegs];

  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K + static_cast<size_t>(m) * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;
    const auto fetch = [&](int k0) {
      rawA = tid < KI && m < g.M && k0 + tid < g.K ? static_cast<uint32_t>(A[k0 + tid]) : 0u;
#pragma unroll
      for (int t = 0; t < kBRegs; ++t) {
        const int e = tid + kThreads * t, k = e / kN, nn = n0 + e % kN, kb = k0 + k;
        rawB[t] = e < KI * kN && nn < g.N && kb < g.K ? static_cast<uint32_t>(B[static_cast<size_t>(kb) * g.N + nn]) : 0u;
      }
    };
    uint32_t acc = valid ? static_cast<uint32_t>(g.C[mn0 + static_cast<size_t>(m) * g.N + n]) : 0u;

    fetch(0);
    for (int s = 0; s < g.steps; ++s) {
      const int k0 = s * KI;
      __syncthreads();  // the previous stage is read
      int specials = 0;
      if (tid < KI) stage_operand(ip.a, rawA, bp, wA[tid], eA[tid], specials);
#pragma unroll
      for (int t = 0; t < kBRegs; ++t) {
        const int e = tid + kThreads * t;
        if (e < KI * kN) stage_operand(ip.b, rawB[t], bp, wB[e / kN][e % kN], eB[e / kN][e % kN], specials);
      }
      if (s + 1 < g.steps) fetch(k0 + KI);  // in flight while this stage computes
      const bool stage_special = __syncthreads_or(specials) != 0;  // the stage is decoded

      const uint32_t in = acc;  // the step's addend, for emu_step
      bool rare = stage_special;
      for (int b0 = 0; b0 < KI; b0 += L) {  // the same blocks in every lane: the shuffles need them all
        const arith::FmtParams acc_fmt = addend_format(ip, s, b0);
        const int n_blk = arith::imin(L, KI - b0);
        int emax = 2 * kZeroExp;
        for (int k = b0 + q; k < b0 + n_blk; k += kLanes) emax = max(emax, eA[k] + eB[k][o]);
        for (int d = kPerWarp; d < 32; d <<= 1) emax = max(emax, __shfl_xor_sync(~0u, emax, d));
        double start;  // the chain's origin plus the addend's term, on every lane
        if (!block_addend(bp, acc_fmt, acc, emax, start)) rare = true;
        const double origin = chain_origin(start);
        double chain = q == 0 ? start : origin;  // the addend's term once, on the output's first lane
        for (int k = b0 + q; k < b0 + n_blk; k += kLanes) chain = arith::chain_add(bp, chain, wA[k], wB[k][o]);
        double sum = chain - origin;  // exact: both in the chain's binade
        for (int d = kPerWarp; d < 32; d <<= 1) sum += __shfl_xor_sync(~0u, sum, d);  // exact: multiples of the grid
        if (!rare) acc = arith::wide_result(bp, block_exp(bp, start), sum);
      }
      if (rare) {
        if (q == 0 && valid) {
          const GlobalLoad<Operand> load{A + k0, B + static_cast<size_t>(k0) * g.N + n, g.N, arith::imin(KI, g.K - k0)};
          acc = uncommon_step<Spec>(generic_params<Spec>(p), load, one_block ? acc : in, s > 0);
        }
      } else {
        acc = arith::to_output(bp.result, acc, ip.d);
      }
      acc = __shfl_sync(~0u, acc, first);  // the output's first lane holds emu_step's result
      if (g.trace && valid && q == 0) g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s] = static_cast<Acc>(acc);
    }
    if (valid && q == 0) g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc);
  }
}

// How a kernel loads its stages: with the stage known at compile time, ahead where that fits the
// tile's kPrefetchRegs (tf32 in the GEMM tile; the 16-bit and tf32 profiles with one output a thread),
// else the whole stage at once where it takes at most eight registers (16-bit in the GEMM tile); FP8's
// stages (sixteen registers: they spilled) and the generic kernel element by element.
template <class Tile, class Spec>
__host__ __device__ constexpr StageLoad stage_load() {
  if constexpr (Spec::kFixed) {
    constexpr int k = Spec::params().instr.k;
    constexpr int regs = (Tile::kM * k + k * Tile::kN + Tile::kThreads - 1) / Tile::kThreads;
    return regs <= Tile::kPrefetchRegs ? StageLoad::ahead : regs <= 8 ? StageLoad::whole : StageLoad::each;
  } else {
    return StageLoad::each;
  }
}

// Spec: tiled::GenericParams (the arithmetic reads `params`) or a FixedParams whose params() equal
// `params` (checked by the host before it picks the kernel). Either way the code and the bits are the same.
template <class Tile, class Spec, class Operand, class Acc>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks) wide_gemm(const __grid_constant__ arith::OpParams params,
                                                                        GemmArgs<Operand, Acc> g) {
  if constexpr (Tile::kSplit) {
    if constexpr (Spec::kFixed) {
      constexpr arith::OpParams kParams = Spec::params();
      wide_split_row<Tile, Spec>(kParams, g);
    } else {
      wide_split_row<Tile, Spec>(params, g);
    }
  } else if constexpr (Spec::kFixed) {
    constexpr arith::OpParams kParams = Spec::params();
    wide_tiles<Tile, Spec, stage_load<Tile, Spec>()>(kParams, g);
  } else {
    wide_tiles<Tile, Spec, StageLoad::each>(params, g);
  }
}

}  // namespace mmaemu::kernels::tiled_fp64
