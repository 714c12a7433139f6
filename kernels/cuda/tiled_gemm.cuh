// The "tiled" kernel: the per-element arithmetic of kernels/arith (emu_step, the very code the host
// backend runs) fed from shared-memory tiles, several outputs per thread.
//
// Block: 16 x 16 threads own a 64 x 64 tile of D (of one batch entry); thread (ty, tx) owns the 4 x 4
// outputs (ty + 16 i, tx + 16 j), so a warp's reads of a B column are consecutive words (no bank
// conflicts) and its reads of an A row are broadcasts. K is staged kSteps instruction steps at a time:
// A[64][KC] and B[KC][64] slices are read from native-width global buffers (16-byte loads where a
// chunk lies wholly inside the row), widened to 32 bits and stored with zeros past M, N and K — the
// reference's padding — so the loader of emu_step needs no bounds. Each output then runs the
// instruction step by step along K, its accumulator in a register, trace written after each step.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/op_params.hpp"
#include "kernels/cuda/gemm_args.hpp"
#include "kernels/cuda/tiled_decoded.cuh"

namespace mmaemu::kernels::tiled {

inline constexpr int kTile = 64;              // outputs per block side
inline constexpr int kThreadsSide = 16;       // 16 x 16 threads
inline constexpr int kPer = kTile / kThreadsSide;  // 4 x 4 outputs per thread
inline constexpr int kStageK = 32;            // K elements staged per pass (whole steps: instr.k divides 32)
inline constexpr int kSeg = 16;               // elements per staging segment (16 bytes of fp8)

// A step's operands from shared memory: A along a row (stride 1), B down a column.
struct SmemLoad {
  const uint32_t* a;
  const uint32_t* b;
  MMAEMU_HD void operator()(int i, uint32_t& x, uint32_t& y) const {
    x = a[i];
    y = b[i * kTile];
  }
};

// The same with the scales of a block-scaled instruction, staged beside the operands: sa[j] for A's row
// and sb[j * kTile] for B's column, j = (the stage's k) / block.
struct SmemScaledLoad : SmemLoad {
  const uint32_t* sa;
  const uint32_t* sb;
  int k_in_stage;  // the step's first k within the stage
  int block;
  MMAEMU_HD void scales(int i, uint32_t& x, uint32_t& y) const {
    const int j = (k_in_stage + i) / block;
    x = sa[j];
    y = sb[j * kTile];
  }
};

// Copies the kSeg elements starting at src (a row segment of a native-width array) into dst as 32-bit
// words, zero from `valid` (elements readable from src) on; 16-byte loads when the segment is wholly
// readable and aligned.
template <class Operand>
__device__ inline void stage_segment(uint32_t* dst, const Operand* src, int valid) {
  constexpr int kVec = 16 / sizeof(Operand);
  static_assert(kSeg % kVec == 0, "a segment is whole 16-byte loads");
  if (valid >= kSeg && reinterpret_cast<uintptr_t>(src) % 16 == 0) {
    for (int v = 0; v < kSeg / kVec; ++v) {
      const uint4 w = reinterpret_cast<const uint4*>(src)[v];
      const Operand* e = reinterpret_cast<const Operand*>(&w);
      for (int i = 0; i < kVec; ++i) dst[v * kVec + i] = e[i];
    }
    return;
  }
  for (int i = 0; i < kSeg; ++i) dst[i] = i < valid ? static_cast<uint32_t>(src[i]) : 0u;
}

// The kernel body; p is the kernel's params, or the same values as compile-time constants (see tiled_params.cuh).
// kDecoded: operands are also decoded once per stage and the steps run by decoded_tile_step, falling back
// to emu_step for the rare cases (tiled_decoded.cuh).
template <bool kDecoded, class Operand, class Acc>
__device__ __forceinline__ void tiled_body(const arith::OpParams& p, const GemmArgs<Operand, Acc>& g) {
  // Rows of sA are padded by one word so that the threads staging different rows hit different banks.
  __shared__ uint32_t sA[kTile][kStageK + 1];
  __shared__ uint32_t sB[kStageK][kTile];
  __shared__ uint32_t dA[kDecoded ? kTile : 1][kStageK + 1];
  __shared__ uint32_t dB[kDecoded ? kStageK : 1][kTile];
  // Block-scaled instructions: the stage's scales (a block is at least 16 k: at most 2 per stage).
  constexpr int kStageScales = kStageK / 16;
  __shared__ uint32_t sSA[kTile][kStageScales];
  __shared__ uint32_t sSB[kStageScales][kTile];
  const bool scaled = p.instr.scale.present;
  const int KI = p.instr.k;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kThreadsSide + tx;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;

  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;

    uint32_t acc[kPer][kPer];
    for (int i = 0; i < kPer; ++i)
      for (int j = 0; j < kPer; ++j) {
        const int m = m0 + ty + kThreadsSide * i, n = n0 + tx + kThreadsSide * j;
        acc[i][j] = m < g.M && n < g.N ? static_cast<uint32_t>(g.C[mn0 + static_cast<size_t>(m) * g.N + n]) : 0u;
      }

    const int stage_steps = kStageK / KI;  // the backend declines an instr.k that does not divide 32
    for (int s0 = 0; s0 < g.steps; s0 += stage_steps) {
      const int k0 = s0 * KI;
      __syncthreads();  // the previous stage is read
      // A: 64 rows x 32, in segments of kSeg elements.
      for (int seg = tid; seg < kTile * (kStageK / kSeg); seg += kThreadsSide * kThreadsSide) {
        const int r = seg / (kStageK / kSeg), c = seg % (kStageK / kSeg) * kSeg, m = m0 + r, kk = k0 + c;
        const int valid = m < g.M ? g.K - kk : 0;
        stage_segment(&sA[r][c], A + static_cast<size_t>(m < g.M ? m : 0) * g.K + kk, valid);
      }
      // B: 32 rows x 64, in segments of kSeg elements along N.
      for (int seg = tid; seg < kStageK * (kTile / kSeg); seg += kThreadsSide * kThreadsSide) {
        const int r = seg / (kTile / kSeg), c = seg % (kTile / kSeg) * kSeg, kk = k0 + r, n = n0 + c;
        const int valid = kk < g.K ? g.N - n : 0;
        stage_segment(&sB[r][c], B + static_cast<size_t>(kk < g.K ? kk : 0) * g.N + n, valid);
      }
      if (scaled) {  // the stage's scales; past the last one (K's padding) the scale 1.0
        const int block = p.instr.scale.block, first = k0 / block, count = kStageK / block;
        const uint32_t unit = arith::unit_scale(p.instr.scale);
        for (int e = tid; e < kTile * count; e += kThreadsSide * kThreadsSide) {
          const int r = e / count, j = e % count, m = m0 + r;
          sSA[r][j] = m < g.M && first + j < g.S ? g.SA[(static_cast<size_t>(bt) * g.M + m) * g.S + first + j] : unit;
          const int n = n0 + e / count;
          sSB[j][e / count] = n < g.N && first + j < g.S ? g.SB[(static_cast<size_t>(bt) * g.S + first + j) * g.N + n] : unit;
        }
      }
      __syncthreads();  // every thread's part of the stage is staged
      if constexpr (kDecoded) {
        for (int e = tid; e < kTile * kStageK; e += kThreadsSide * kThreadsSide) {
          const int r = e / kStageK, c = e % kStageK;  // A: 64 x 32
          dA[r][c] = pack_operand(p.instr.a, sA[r][c], p.instr.block);
          const int k = e / kTile, n = e % kTile;  // B: 32 x 64, consecutive threads on consecutive banks
          dB[k][n] = pack_operand(p.instr.b, sB[k][n], p.instr.block);
        }
        __syncthreads();
      }

      for (int ss = 0; ss < stage_steps && s0 + ss < g.steps; ++ss) {
        const int kb = ss * KI;
        bool rare[kPer][kPer];
        if constexpr (kDecoded) {
          // The thread's 4 x 4 outputs together: each decoded operand read once for the four outputs
          // that share it.
          decoded_tile_step(p, &dA[ty][kb], kThreadsSide * (kStageK + 1), &dB[kb][tx], kThreadsSide, kTile, acc, rare);
        } else {
          for (int i = 0; i < kPer; ++i)
            for (int j = 0; j < kPer; ++j) rare[i][j] = true;
        }
        for (int i = 0; i < kPer; ++i)
          for (int j = 0; j < kPer; ++j) {
            if (!rare[i][j]) continue;
            const int r = ty + kThreadsSide * i, c = tx + kThreadsSide * j;
            if (scaled)
              acc[i][j] = arith::emu_step(
                  p, SmemScaledLoad{{&sA[r][kb], &sB[kb][c]}, &sSA[r][0], &sSB[0][c], kb, p.instr.scale.block},
                  acc[i][j]);
            else
              acc[i][j] = arith::emu_step(p, SmemLoad{&sA[r][kb], &sB[kb][c]}, acc[i][j]);
          }
        if (g.trace) {
          for (int i = 0; i < kPer; ++i)
            for (int j = 0; j < kPer; ++j) {
              const int m = m0 + ty + kThreadsSide * i, n = n0 + tx + kThreadsSide * j;
              if (m < g.M && n < g.N)
                g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s0 + ss] = static_cast<Acc>(acc[i][j]);
            }
        }
      }
    }

    for (int i = 0; i < kPer; ++i)
      for (int j = 0; j < kPer; ++j) {
        const int m = m0 + ty + kThreadsSide * i, n = n0 + tx + kThreadsSide * j;
        if (m < g.M && n < g.N) g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc[i][j]);
      }
  }
}

// Spec: GenericParams (the arithmetic reads `params`) or a FixedParams whose params() equal `params`
// (checked by the host before it picks the kernel), so that decoding, alignment and rounding fold to
// constant shifts and masks. Either way the code is emu_step's and the bits are the same.
template <class Operand, class Acc, class Spec>
__global__ void __launch_bounds__(kThreadsSide* kThreadsSide) tiled_gemm(arith::OpParams params,
                                                                  GemmArgs<Operand, Acc> g) {
  if constexpr (Spec::kFixed) {
    constexpr arith::OpParams kParams = Spec::params();
    static_assert(!Spec::kDecoded || kParams.instr.k == kParams.instr.block.L, "the decoded path takes one block per step");
    tiled_body<Spec::kDecoded>(kParams, g);
  } else {
    tiled_body<false>(params, g);
  }
}

}  // namespace mmaemu::kernels::tiled
