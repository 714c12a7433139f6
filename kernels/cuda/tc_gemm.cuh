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

#include "kernels/cuda/fragment_layout.hpp"
#include "kernels/cuda/gemm_args.hpp"
#include "kernels/cuda/tc_instructions.cuh"

namespace mmaemu::kernels::tc {

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
      __syncthreads();  // every warp's part of the step's slices is staged

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

namespace mmaemu::kernels::tc {

// ---- wgmma m64n8, staged (no trace) ---------------------------------------------------------------------
// The same instruction sequence per output as wgmma_gemm (C, then the steps in K order, the last one
// zero-padded), arranged for throughput: kStageSteps steps of A and B are staged at once with 16-byte
// loads, the next stage is fetched into registers while the tensor core runs the current one, and a
// stage's kStageSteps x 8 instructions are issued back to back with one wait. Instructions on the same
// accumulator registers are chained by the hardware in issue order, which is K order.
inline constexpr int kStageSteps = 4;
inline constexpr int kStepBytes = kTile * 32;  // one step of a 64-row operand, K-major core matrices
// 16-byte chunks per stage and operand: 64 rows x kStageSteps steps x 2; the same for B (KI x 64 at any width).
inline constexpr int kStageChunks = kTile * kStageSteps * 2;
inline constexpr int kChunksPerThread = kStageChunks / kThreads;

// 16 bytes of a row starting at src, of which `valid` elements may be read; zero after them.
template <class Operand>
__device__ inline uint4 fetch_chunk(const Operand* src, int valid) {
  constexpr int kVec = 16 / sizeof(Operand);
  if (valid >= kVec && reinterpret_cast<uintptr_t>(src) % 16 == 0) return *reinterpret_cast<const uint4*>(src);
  union {
    uint4 v;
    Operand e[kVec];
  } u;
  for (int i = 0; i < kVec; ++i) u.e[i] = i < valid ? src[i] : Operand(0);  // +0 in every format
  return u.v;
}

template <class Operand>
struct StageChunks {
  uint4 a[kChunksPerThread], b[kChunksPerThread];
};

// Chunk q of A: row r, step s, 16-byte half h. Chunk q of B: k row kr (of the stage's kStageSteps * KI),
// 16-byte segment of N ns; consecutive threads take consecutive k rows, so that their transposing
// stores into the K-major B fall on neighbouring bytes.
template <class Operand, int KI>
__device__ inline void fetch_stage(StageChunks<Operand>& st, const Operand* A, const Operand* B, int M, int N,
                                   int K, int m0, int n0, int k0, int tid) {
  constexpr int kVec = 16 / sizeof(Operand), kRowsK = kStageSteps * KI;
  for (int it = 0; it < kChunksPerThread; ++it) {
    const int q = tid + it * kThreads;
    const int r = q / (2 * kStageSteps), sh = q % (2 * kStageSteps);
    const int m = m0 + r, kk = k0 + sh * kVec;
    st.a[it] = fetch_chunk(A + static_cast<size_t>(m < M ? m : 0) * K + kk, m < M ? K - kk : 0);
    const int kr = q % kRowsK, ns = q / kRowsK;
    const int kb = k0 + kr, n = n0 + ns * kVec;
    st.b[it] = fetch_chunk(B + static_cast<size_t>(kb < K ? kb : 0) * N + n, kb < K ? N - n : 0);
  }
}

template <class Operand, int KI>
__device__ inline void store_stage(const StageChunks<Operand>& st, uint8_t* sA, uint8_t* sB, int tid) {
  constexpr int kVec = 16 / sizeof(Operand), kRowsK = kStageSteps * KI;
  for (int it = 0; it < kChunksPerThread; ++it) {
    const int q = tid + it * kThreads;
    const int r = q / (2 * kStageSteps), sh = q % (2 * kStageSteps), s = sh / 2, h = sh % 2;
    *reinterpret_cast<uint4*>(sA + s * kStepBytes + layout::kmajor_offset(r, h * kVec, sizeof(Operand))) = st.a[it];
    const int kr = q % kRowsK, ns = q / kRowsK, sb = kr / KI, k = kr % KI;
    const Operand* e = reinterpret_cast<const Operand*>(&st.b[it]);
    for (int i = 0; i < kVec; ++i)
      *reinterpret_cast<Operand*>(sB + sb * kStepBytes + layout::kmajor_offset(ns * kVec + i, k, sizeof(Operand))) = e[i];
  }
}

// One step of the 64 x 64 tile: eight m64n8 instructions, group j on columns 8j..8j+7.
template <class I>
__device__ __forceinline__ void issue_step(const uint8_t* sA, const uint8_t* sB, uint32_t (&acc)[kTile / 8][4]) {
  const uint64_t desc_a = smem_descriptor(sA);
#pragma unroll
  for (int j = 0; j < kTile / 8; ++j) I::issue(desc_a, smem_descriptor(sB + j * 256), acc[j]);
}

template <class I>
__global__ void __launch_bounds__(kThreads) wgmma_gemm_staged(GemmArgs<typename I::Operand, typename I::Acc> g) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  constexpr int KI = I::kK;
  constexpr int kJ = kTile / 8;
  static_assert(KI * sizeof(Operand) == 32, "one step is 32 bytes of K");
  static_assert(kStageChunks % kThreads == 0, "whole chunks per thread");
  __shared__ __align__(128) uint8_t sA[kStageSteps * kStepBytes];
  __shared__ __align__(128) uint8_t sB[kStageSteps * kStepBytes];

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

    StageChunks<Operand> st;
    fetch_stage<Operand, KI>(st, A, B, g.M, g.N, g.K, m0, n0, 0, tid);
    for (int s0 = 0; s0 < g.steps; s0 += kStageSteps) {
      __syncthreads();  // the previous stage's instructions have completed (each thread waited)
      store_stage<Operand, KI>(st, sA, sB, tid);
      // The generic-proxy stores become visible to the tensor core's async proxy, then to the group.
      MMAEMU_TC_SM90A(asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"));
      __syncthreads();
      if (s0 + kStageSteps < g.steps)  // the next stage's loads overlap this stage's instructions
        fetch_stage<Operand, KI>(st, A, B, g.M, g.N, g.K, m0, n0, (s0 + kStageSteps) * KI, tid);
      const int n_steps = g.steps - s0 < kStageSteps ? g.steps - s0 : kStageSteps;
      wg_fence();
      if (n_steps == kStageSteps) {  // straight-line issue: no branch between the instructions
#pragma unroll
        for (int s = 0; s < kStageSteps; ++s) issue_step<I>(sA + s * kStepBytes, sB + s * kStepBytes, acc);
      } else {
        for (int s = 0; s < n_steps; ++s) issue_step<I>(sA + s * kStepBytes, sB + s * kStepBytes, acc);
      }
      wg_commit();
      wg_wait_all();
    }

    for (int j = 0; j < kJ; ++j)
      for (int e = 0; e < 4; ++e) {
        const layout::RowCol rc = layout::wgmma_d(tid, e);
        const int m = m0 + rc.row, n = n0 + j * 8 + rc.col;
        if (m < g.M && n < g.N)
          g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc_get<Acc>(acc[j], e));
      }
    __syncthreads();  // the next batch entry's stores must not overtake this one's reads
  }
}

}  // namespace mmaemu::kernels::tc
