// The tc backend's GEMM for the wide wgmma instructions (m64nN, N = 64 / 128 / 256), built the way a
// Hopper GEMM is built for throughput, with the same instruction sequence per output as every tc kernel:
// C, then one instruction per K step in K order on the same accumulator registers (the hardware chains
// asynchronous wgmmas on one accumulator in issue order), the last step zero-padded past K.
//
//   - a block is two warpgroups stacked along M: a 128 x N tile of D, each warpgroup 64 x N;
//   - operands reach shared memory through cp.async (16 bytes a thread, no registers in between) into
//     kStages stages of kStepsPerStage instruction steps (128 bytes of K per row); loads run two stages
//     ahead of the tensor cores, and each warpgroup keeps one stage's wgmmas in flight while it issues
//     the next;
//   - both operands are read K-major (no transpose in the instruction, which tf32 and FP8 do not have):
//     A as it is when its rows are 16-byte multiples, B transposed once per call by pack_k_major (part of
//     the timed work).
// Rows of A past M and of B past N are read from the last row (their outputs are never written); K past
// the end is zero-filled by the copy itself.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/cuda/fragment_layout.hpp"
#include "kernels/cuda/tc_gemm.cuh"  // acc_get, acc_set
#include "kernels/cuda/tc_instructions.cuh"

namespace mmaemu::kernels::tc::pipelined {

inline constexpr int kWarpgroups = 2;
inline constexpr int kThreads = 128 * kWarpgroups;
inline constexpr int kTileM = 64 * kWarpgroups;
inline constexpr int kStepsPerStage = 4;
inline constexpr int kStages = 4;
inline constexpr int kStepRowBytes = 32;                             // one instruction step of one row
inline constexpr int kStageRowBytes = kStepRowBytes * kStepsPerStage;  // 128
inline constexpr int kChunksPerRow = kStageRowBytes / 16;

template <class Operand, class Acc>
struct Args {
  const Operand* A;  // [batch][M][lda], K-major
  const Operand* Bt; // [batch][N][ldb], K-major (B transposed)
  const Acc* C;      // [batch][M][N]; not read by the kernel for slices from +0
  Acc* D;            // [batch][M][N]
  size_t a_batch, bt_batch;  // elements between batch entries
  int lda, ldb;
  int M, N, K, steps, batch;
};

MMAEMU_HD constexpr int stage_bytes(int n) { return (kTileM + n) * kStageRowBytes; }
MMAEMU_HD constexpr int smem_bytes(int n) { return kStages * stage_bytes(n); }

// ---- cp.async ------------------------------------------------------------------------------------------
// 16 bytes from global to shared memory; with `valid` false nothing is read and the 16 bytes are zeros.
__device__ __forceinline__ void copy16(void* smem, const void* gmem, bool valid) {
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void copy_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int kPending>
__device__ __forceinline__ void copy_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// One stage of a K-major operand of `kRows` rows: rows r0 .., elements [k0, k0 + kStageK) of K, into the
// wgmma layout, chunk by chunk as layout::stage_chunk places them.
template <int kRows, class Operand>
__device__ __forceinline__ void load_stage_rows(uint8_t* smem, const Operand* src, int ld, int rows, int r0,
                                                int K, int k0, int tid) {
  constexpr int kElems = 16 / sizeof(Operand);
  constexpr int kChunks = kRows * kChunksPerRow;
  static_assert(kChunks % kThreads == 0, "whole chunks per thread");
#pragma unroll
  for (int i = 0; i < kChunks / kThreads; ++i) {
    const layout::StageChunk c = layout::stage_chunk(tid + i * kThreads, kRows);
    const int row = r0 + c.row < rows ? r0 + c.row : rows - 1;
    const int k = k0 + (2 * c.step + c.half) * kElems;
    copy16(smem + c.smem, src + static_cast<size_t>(row) * ld + (k < K ? k : 0), k < K);
  }
}

// How a kernel's chains start and end. from_c: from C, one chain over K (the tc backend). from_zero:
// from +0, C not read (the library model's slices). promoted: FP8 promotion as cuBLASLt does it on
// Hopper, each stage's chain (kStepsPerStage steps: 128 products of a k32 FP8 wgmma) from +0 and
// added in fp32 (round to nearest) into a sum per output kept in registers, which D receives. Each a
// kernel of its own rather than a test inside one: ptxas serializes every wgmma of a kernel whose
// accumulators are defined under a run-time test (C7515: "wgmma.mma_async instructions are serialized").
enum class Chain { from_c, from_zero, promoted };

template <class I, Chain kChain = Chain::from_c>
__global__ void __launch_bounds__(kThreads, 1) wgmma_gemm_pipelined(Args<typename I::Operand, typename I::Acc> g) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  static_assert(kStepRowBytes == I::kK * sizeof(Operand), "one step is 32 bytes of K");
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __trap();  // wgmma exists on sm_90a only; never launched elsewhere (the backend declines other GPUs)
#else
  constexpr int kN = I::kN, kRegsPer8 = 4 * sizeof(Acc) / 4;  // accumulator registers per 8 columns
  constexpr int kStageK = kStepsPerStage * I::kK;                // elements of K per stage
  constexpr int kStageA = kTileM * kStageRowBytes;
  extern __shared__ __align__(128) uint8_t smem[];

  const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kN;
  const int k_tiles = (g.steps + kStepsPerStage - 1) / kStepsPerStage;
  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const Operand* A = g.A + bt * g.a_batch;
    const Operand* Bt = g.Bt + bt * g.bt_batch;
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;
    auto load_stage = [&](int kt) {
      uint8_t* base = smem + (kt % kStages) * stage_bytes(kN);
      load_stage_rows<kTileM>(base, A, g.lda, g.M, m0, g.K, kt * kStageK, tid);
      load_stage_rows<kN>(base + kStageA, Bt, g.ldb, g.N, n0, g.K, kt * kStageK, tid);
    };

    static_assert(kChain != Chain::promoted || sizeof(Acc) == 4, "promotion adds fp32 accumulators");
    constexpr bool kPromoted = kChain == Chain::promoted;
    uint32_t acc[I::kAccRegs];
    float promoted[kPromoted ? I::kAccRegs : 1];
#pragma unroll
    for (int r = 0; r < I::kAccRegs; ++r) acc[r] = 0;
    if constexpr (kPromoted) {
#pragma unroll
      for (int r = 0; r < I::kAccRegs; ++r) promoted[r] = 0.0f;
    }
    if constexpr (kChain == Chain::from_c) {
#pragma unroll
      for (int j = 0; j < kN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const layout::RowCol rc = layout::wgmma_d(t, e);
          const int m = m0 + 64 * wg + rc.row, n = n0 + j * 8 + rc.col;
          if (m < g.M && n < g.N) acc_set<Acc>(acc + j * kRegsPer8, e, g.C[mn0 + static_cast<size_t>(m) * g.N + n]);
        }
    }

    // Stages 0 .. kStages - 3 in flight before the first instruction; one copy group per stage, empty
    // ones included, so that "stage kt has landed" is always "at most kStages - 3 groups pending".
    for (int kt = 0; kt < kStages - 2; ++kt) {
      if (kt < k_tiles) load_stage(kt);
      copy_commit();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      copy_wait<kStages - 3>();
      // This thread's copies become visible to the tensor core's async proxy, then the barrier makes
      // every thread's visible; it also means both warpgroups have finished stage kt - 2 (each waited
      // for all but its last group), whose buffer the next load reuses.
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
      __syncthreads();
      if (kt + kStages - 2 < k_tiles) load_stage(kt + kStages - 2);
      copy_commit();

      const uint8_t* base = smem + (kt % kStages) * stage_bytes(kN);
      const uint8_t* a = base + wg * (64 / 8) * layout::kStrideByteOffset;
      const uint8_t* b = base + kStageA;
      const int n_steps = g.steps - kt * kStepsPerStage < kStepsPerStage ? g.steps - kt * kStepsPerStage : kStepsPerStage;
      if constexpr (kPromoted) {  // this stage's chain from +0; the last one's was added and waited for
#pragma unroll
        for (int r = 0; r < I::kAccRegs; ++r) acc[r] = 0;
      }
#pragma unroll
      for (int r = 0; r < I::kAccRegs; ++r) fence_register(acc[r]);
      wg_fence();
      if (n_steps == kStepsPerStage) {  // straight-line issue: no branch between the instructions
#pragma unroll
        for (int s = 0; s < kStepsPerStage; ++s)
          I::issue(smem_descriptor(a + s * kTileM * kStepRowBytes), smem_descriptor(b + s * kN * kStepRowBytes), acc);
      } else {
        for (int s = 0; s < n_steps; ++s)
          I::issue(smem_descriptor(a + s * kTileM * kStepRowBytes), smem_descriptor(b + s * kN * kStepRowBytes), acc);
      }
      wg_commit();
      if constexpr (kPromoted) {  // the chain is promoted before the next one starts
        wg_wait<0>();
#pragma unroll
        for (int r = 0; r < I::kAccRegs; ++r) {
          fence_register(acc[r]);
          promoted[r] = __fadd_rn(promoted[r], __uint_as_float(acc[r]));
        }
      } else {
        wg_wait<1>();
#pragma unroll
        for (int r = 0; r < I::kAccRegs; ++r) fence_register(acc[r]);
      }
    }
    wg_wait<0>();
#pragma unroll
    for (int r = 0; r < I::kAccRegs; ++r) fence_register(acc[r]);

#pragma unroll
    for (int j = 0; j < kN / 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const layout::RowCol rc = layout::wgmma_d(t, e);
        const int m = m0 + 64 * wg + rc.row, n = n0 + j * 8 + rc.col;
        if (m < g.M && n < g.N) {
          if constexpr (kPromoted)
            g.D[mn0 + static_cast<size_t>(m) * g.N + n] = __float_as_uint(promoted[j * kRegsPer8 + e]);
          else
            g.D[mn0 + static_cast<size_t>(m) * g.N + n] = static_cast<Acc>(acc_get<Acc>(acc + j * kRegsPer8, e));
        }
      }
    __syncthreads();  // the next batch entry's copies must not overwrite stages still being read
  }
#endif
}

// ---- operand packing ------------------------------------------------------------------------------------
// B [batch][K][N] -> Bt [batch][N][ld] (K-major, zeros for K <= k < ld), through a 32 x 32 tile in shared
// memory so that both the reads (along N) and the writes (along K) are coalesced.
template <class T>
__global__ void pack_k_major(const T* B, int K, int N, T* Bt, int ld, int batch) {
  __shared__ T tile[32][33];
  const int k0 = blockIdx.y * 32, n0 = blockIdx.x * 32, tx = threadIdx.x;
  for (int bt = blockIdx.z; bt < batch; bt += gridDim.z) {
    const T* src = B + static_cast<size_t>(bt) * K * N;
    T* dst = Bt + static_cast<size_t>(bt) * N * ld;
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int k = k0 + i, n = n0 + tx;
      tile[i][tx] = k < K && n < N ? src[static_cast<size_t>(k) * N + n] : T(0);  // +0 in every format
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int n = n0 + i, k = k0 + tx;
      if (n < N && k < ld) dst[static_cast<size_t>(n) * ld + k] = tile[tx][i];
    }
    __syncthreads();
  }
}

// A [batch][M][K] -> [batch][M][ld] with zeros for K <= k < ld: only when A's rows are not whole 16-byte
// chunks (cp.async reads 16 aligned bytes).
template <class T>
__global__ void pad_rows(const T* A, int M, int K, T* out, int ld, int batch) {
  const size_t per = static_cast<size_t>(M) * ld, total = per * batch;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const size_t bt = i / per, r = i % per / ld, k = i % ld;
    out[i] = k < static_cast<size_t>(K) ? A[(bt * M + r) * K + k] : T(0);
  }
}

}  // namespace mmaemu::kernels::tc::pipelined
