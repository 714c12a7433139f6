// GEMM kernels of the "tc" backend: the hardware's MMA loop, spelled out.
//
// Each block owns a 64 x 64 tile of D (of one batch entry) and walks K one instruction step at a time:
// the step's A and B slices go to shared memory (zero past M, N and K, as the reference pads), every
// warp (mma.sync) or the warpgroup (wgmma) runs the instruction on its fragments with the accumulator
// registers as C, and the result stays in those registers as the next step's C. The accumulator after
// every step can be written to the trace. Nothing but the instruction touches the values.
#pragma once
#include <cstddef>
#include <cstdint>

#include "harness/record/fragment_layout.hpp"
#include "tc_instructions.cuh"

namespace mmaemu::kernels::tc {

namespace layout = record::layout;

template <class Operand, class Acc>
struct GemmArgs {
  const Operand* A;  // [batch][M][K]
  const Operand* B;  // [batch][K][N]
  const Acc* C;      // [batch][M][N]
  Acc* D;            // [batch][M][N]
  Acc* trace;        // [batch][M][N][steps] or nullptr
  int M, N, K, steps;
  int batch;
};

inline constexpr int kTile = 64;      // D tile per block: 64 x 64
inline constexpr int kThreads = 128;  // 4 warps (mma.sync: 2 x 2 warps of 32 x 32) or one warpgroup

// Where accumulator element e (of 4) of an m16n8 fragment lives in registers: f32 one per register,
// f16 two per register (lower half first).
template <class Acc>
__device__ inline uint32_t acc_get(const uint32_t* regs, int e) {
  constexpr int per = 4 / sizeof(Acc);
  return static_cast<Acc>(regs[e / per] >> ((e % per) * 8 * sizeof(Acc) % 32));
}
template <class Acc>
__device__ inline void acc_set(uint32_t* regs, int e, uint32_t v) {
  constexpr int per = 4 / sizeof(Acc);
  regs[e / per] |= static_cast<uint32_t>(static_cast<Acc>(v)) << ((e % per) * 8 * sizeof(Acc) % 32);
}

template <class Operand>
__device__ inline Operand load_or_zero(const Operand* p, bool inside) {
  return inside ? *p : Operand(0);  // +0 in every format
}

// ---- mma.sync ---------------------------------------------------------------------------------------
template <class I>
__global__ void __launch_bounds__(kThreads) mma_sync_gemm(GemmArgs<typename I::Operand, typename I::Acc> g) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  constexpr int KI = I::kK, P = 4 / sizeof(Operand), kBits = 8 * sizeof(Operand);
  constexpr int kTm = 2, kTn = 4;           // per warp: 2 x 4 fragments of 16 x 8 = 32 x 32
  constexpr int kCRegs = 4 * sizeof(Acc) / 4;  // f32: 4, f16: 2
  __shared__ Operand sA[kTile][KI];
  __shared__ Operand sB[KI][kTile];

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;

    uint32_t acc[kTm][kTn][4];
    for (int tm = 0; tm < kTm; ++tm)
      for (int tn = 0; tn < kTn; ++tn) {
        for (int r = 0; r < 4; ++r) acc[tm][tn][r] = 0;
        for (int e = 0; e < 4; ++e) {
          const layout::RowCol rc = layout::mma_c(lane, e);
          const int m = m0 + wm + tm * 16 + rc.row, n = n0 + wn + tn * 8 + rc.col;
          if (m < g.M && n < g.N) acc_set<Acc>(acc[tm][tn], e, g.C[mn0 + static_cast<size_t>(m) * g.N + n]);
        }
      }

    for (int s = 0; s < g.steps; ++s) {
      const int k0 = s * KI;
      __syncthreads();  // the previous step's fragments are read
      for (int i = tid; i < kTile * KI; i += kThreads) {
        const int r = i / KI, k = i % KI, m = m0 + r, kk = k0 + k;
        sA[r][k] = load_or_zero(A + static_cast<size_t>(m) * g.K + kk, m < g.M && kk < g.K);
      }
      for (int i = tid; i < KI * kTile; i += kThreads) {
        const int k = i / kTile, c = i % kTile, n = n0 + c, kk = k0 + k;
        sB[k][c] = load_or_zero(B + static_cast<size_t>(kk) * g.N + n, n < g.N && kk < g.K);
      }
      __syncthreads();

      uint32_t a[kTm][4] = {}, b[kTn][2] = {};
      for (int tm = 0; tm < kTm; ++tm)
        for (int reg = 0; reg < I::kARegs; ++reg)
          for (int i = 0; i < P; ++i) {
            const layout::RowCol rc = layout::mma_a(lane, reg, i, P);
            a[tm][reg] |= static_cast<uint32_t>(sA[wm + tm * 16 + rc.row][rc.col]) << (i * kBits % 32);
          }
      for (int tn = 0; tn < kTn; ++tn)
        for (int reg = 0; reg < I::kBRegs; ++reg)
          for (int i = 0; i < P; ++i) {
            const layout::RowCol rc = layout::mma_b(lane, reg, i, P);
            b[tn][reg] |= static_cast<uint32_t>(sB[rc.row][wn + tn * 8 + rc.col]) << (i * kBits % 32);
          }
      for (int tm = 0; tm < kTm; ++tm)
        for (int tn = 0; tn < kTn; ++tn) {
          uint32_t d[4] = {};
          I::mma(a[tm], b[tn], acc[tm][tn], d);
          for (int r = 0; r < kCRegs; ++r) acc[tm][tn][r] = d[r];
        }
      if (g.trace) {
        for (int tm = 0; tm < kTm; ++tm)
          for (int tn = 0; tn < kTn; ++tn)
            for (int e = 0; e < 4; ++e) {
              const layout::RowCol rc = layout::mma_c(lane, e);
              const int m = m0 + wm + tm * 16 + rc.row, n = n0 + wn + tn * 8 + rc.col;
              if (m < g.M && n < g.N)
                g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s] =
                    static_cast<Acc>(acc_get<Acc>(acc[tm][tn], e));
            }
      }
    }

    for (int tm = 0; tm < kTm; ++tm)
      for (int tn = 0; tn < kTn; ++tn)
        for (int e = 0; e < 4; ++e) {
          const layout::RowCol rc = layout::mma_c(lane, e);
          const int m = m0 + wm + tm * 16 + rc.row, n = n0 + wn + tn * 8 + rc.col;
          if (m < g.M && n < g.N)
            g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc_get<Acc>(acc[tm][tn], e));
        }
  }
}

// ---- wgmma m64n8 --------------------------------------------------------------------------------------
// One warpgroup; the 64 x 64 tile is 8 m64n8 instructions per step, each with its own B descriptor.
template <class I>
__global__ void __launch_bounds__(kThreads) wgmma_gemm(GemmArgs<typename I::Operand, typename I::Acc> g) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  constexpr int KI = I::kK;  // 32 bytes of K per instruction
  constexpr int kJ = kTile / 8;
  __shared__ __align__(128) uint8_t sA[kTile * 32];
  __shared__ __align__(128) uint8_t sB[kTile * 32];  // rows are N; group j starts 256 * j bytes in

  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + static_cast<size_t>(bt) * g.M * g.K;
    const Operand* B = g.B + static_cast<size_t>(bt) * g.K * g.N;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;

    uint32_t acc[kJ][4];
    for (int j = 0; j < kJ; ++j) {
      for (int r = 0; r < 4; ++r) acc[j][r] = 0;
      for (int e = 0; e < 4; ++e) {
        const layout::RowCol rc = layout::wgmma_d(tid, e);
        const int m = m0 + rc.row, n = n0 + j * 8 + rc.col;
        if (m < g.M && n < g.N) acc_set<Acc>(acc[j], e, g.C[mn0 + static_cast<size_t>(m) * g.N + n]);
      }
    }

    for (int s = 0; s < g.steps; ++s) {
      const int k0 = s * KI;
      __syncthreads();  // the previous step's instructions have read shared memory
      for (int i = tid; i < kTile * KI; i += kThreads) {
        const int r = i / KI, k = i % KI, m = m0 + r, kk = k0 + k;
        *reinterpret_cast<Operand*>(sA + layout::kmajor_offset(r, k, sizeof(Operand))) =
            load_or_zero(A + static_cast<size_t>(m) * g.K + kk, m < g.M && kk < g.K);
      }
      for (int i = tid; i < KI * kTile; i += kThreads) {
        const int k = i / kTile, c = i % kTile, n = n0 + c, kk = k0 + k;
        *reinterpret_cast<Operand*>(sB + layout::kmajor_offset(c, k, sizeof(Operand))) =
            load_or_zero(B + static_cast<size_t>(kk) * g.N + n, n < g.N && kk < g.K);
      }
      // The generic-proxy stores become visible to the tensor core's async proxy, then to the group.
      MMAEMU_TC_SM90A(asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"));
      __syncthreads();
      const uint64_t desc_a = smem_descriptor(sA);
      for (int j = 0; j < kJ; ++j) I::mma(desc_a, smem_descriptor(sB + j * 256), acc[j]);
      if (g.trace) {
        for (int j = 0; j < kJ; ++j)
          for (int e = 0; e < 4; ++e) {
            const layout::RowCol rc = layout::wgmma_d(tid, e);
            const int m = m0 + rc.row, n = n0 + j * 8 + rc.col;
            if (m < g.M && n < g.N)
              g.trace[(mn0 + static_cast<size_t>(m) * g.N + n) * g.steps + s] =
                  static_cast<Acc>(acc_get<Acc>(acc[j], e));
          }
      }
    }

    for (int j = 0; j < kJ; ++j)
      for (int e = 0; e < 4; ++e) {
        const layout::RowCol rc = layout::wgmma_d(tid, e);
        const int m = m0 + rc.row, n = n0 + j * 8 + rc.col;
        if (m < g.M && n < g.N)
          g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc_get<Acc>(acc[j], e));
      }
  }
}

}  // namespace mmaemu::kernels::tc
