// The tc backend's GEMM for the wide wgmma instructions (m64nN, N = 64 / 128 / 256), built the way a
// Hopper GEMM is built for throughput, with the same instruction sequence per output as every tc kernel:
// C, then one instruction per K step in K order on the same accumulator registers (the hardware chains
// asynchronous wgmmas on one accumulator in issue order), the last step zero-padded past K.
//
//   - a block is two warpgroups stacked along M: a 128 x N tile of D, each warpgroup 64 x N;
//   - operands reach shared memory through the tensor memory accelerator (one bulk copy per operand and
//     stage, issued by one thread, completing on the stage's mbarrier) into kStages stages of
//     kStepsPerStage instruction steps (128 bytes of K per row, 128-byte swizzled, the layout the wgmma
//     descriptors name); copies run kStages - 1 stages ahead of the tensor cores, and each warpgroup
//     keeps one stage's wgmmas in flight while it issues the next. (Copies by every thread with
//     cp.async, one L2 request per 32 bytes, made the kernel L2-tag-bound: 64% of the tag rate at 22%
//     of the tensor pipe, Nsight Compute on an H100.)
//   - both operands are read K-major (no transpose in the instruction, which tf32 and FP8 do not have):
//     A as it is when its rows are 16-byte multiples, B transposed once per call by pack_k_major (part of
//     the timed work).
// Rows of A past M, of B past N and K past the end are zeros from the copy itself (out of the tensor
// map's bounds); outputs past M and N are never written.
#pragma once
#include <cuda.h>  // CUtensorMap

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

template <class Operand, class Acc>
struct Args {
  // The operands as 3-D tensor maps of K-major rows (kernels/cuda/tma_map.hpp): coordinates (k, row, z),
  // or (k, z, row) where z_inner (slices of one array, z the slice); z is the batch entry or the slice.
  CUtensorMap a, bt;
  const Acc* C;      // [batch][M][N]; not read by the kernel for slices from +0
  Acc* D;            // [batch][M][N]
  int M, N, K, steps, batch;
  bool a_z_inner, bt_z_inner;
};

MMAEMU_HD constexpr int stage_bytes(int n) { return (kTileM + n) * kStageRowBytes; }
// The stages start on 1024 bytes (the 128-byte swizzle's period); the dynamic buffer may not.
MMAEMU_HD constexpr int smem_bytes(int n) { return kStages * stage_bytes(n) + 1024; }

// ---- the tensor memory accelerator and mbarriers ---------------------------------------------------------
__device__ __forceinline__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)), "r"(count) : "memory");
}
// This thread's arrival, announcing `bytes` more to land by bulk copies before the phase completes.
__device__ __forceinline__ void barrier_expect(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_address(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barrier_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(smem_address(bar)), "r"(parity)
                 : "memory");
  } while (!done);
}
// One box of a 3-D tensor map into shared memory, completing on `bar`.
__device__ __forceinline__ void tma_load(void* smem, const CUtensorMap* map, int c0, int c1, int c2, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(
          smem_address(smem)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(smem_address(bar))
      : "memory");
}

// The wgmma descriptor of K-major rows of 128 bytes in the 128-byte swizzle (PTX ISA "Matrix Descriptor
// Format": start address and stride byte offset (8 rows: 1024 bytes) in 16-byte units, the leading byte
// offset unused, layout type 1). One instruction step further along K is 32 bytes further in the row.
__device__ __forceinline__ uint64_t swizzled_descriptor(const void* smem) {
  return static_cast<uint64_t>((smem_address(smem) & 0x3FFFF) >> 4) | uint64_t{1} << 16 | uint64_t{1024 >> 4} << 32 |
         uint64_t{1} << 62;
}

// How a kernel's chains start and end. from_c: from C, one chain over K (the tc backend). from_zero:
// from +0, C not read (the library model's slices). promoted: FP8 promotion as cuBLASLt does it on
// Hopper, each stage's chain (kStepsPerStage steps: 128 products of a k32 FP8 wgmma) from +0 and
// added in fp32 (round to nearest) into a sum per output kept in registers, which D receives. Each a
// kernel of its own rather than a test inside one: ptxas serializes every wgmma of a kernel whose
// accumulators are defined under a run-time test (C7515: "wgmma.mma_async instructions are serialized").
enum class Chain { from_c, from_zero, promoted };

template <class I, Chain kChain = Chain::from_c>
__global__ void __launch_bounds__(kThreads, 1) wgmma_gemm_pipelined(const __grid_constant__ Args<typename I::Operand, typename I::Acc> g) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  static_assert(kStepRowBytes == I::kK * sizeof(Operand), "one step is 32 bytes of K");
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __trap();  // wgmma exists on sm_90a only; never launched elsewhere (the backend declines other GPUs)
#else
  constexpr int kN = I::kN, kRegsPer8 = 4 * sizeof(Acc) / 4;  // accumulator registers per 8 columns
  constexpr int kStageK = kStepsPerStage * I::kK;                // elements of K per stage
  constexpr int kStageA = kTileM * kStageRowBytes;
  extern __shared__ uint8_t smem_raw[];
  uint8_t* const smem = smem_raw + ((1024 - smem_address(smem_raw) % 1024) % 1024);
  __shared__ uint64_t landed[kStages];  // stage s's copies have landed (phase per use)

  const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kN;
  const int k_tiles = (g.steps + kStepsPerStage - 1) / kStepsPerStage;
  if (tid == 0)
    for (int s = 0; s < kStages; ++s) barrier_init(&landed[s], 1);
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  __syncthreads();
  uint32_t loads = 0, uses = 0;  // stages loaded and consumed so far, over every batch entry: the phases
  for (int bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const size_t mn0 = static_cast<size_t>(bt) * g.M * g.N;
    auto load_stage = [&](int kt) {  // one thread
      const int buffer = loads % kStages;
      uint8_t* base = smem + buffer * stage_bytes(kN);
      barrier_expect(&landed[buffer], stage_bytes(kN));
      const int k = kt * kStageK;
      tma_load(base, &g.a, k, g.a_z_inner ? bt : m0, g.a_z_inner ? m0 : bt, &landed[buffer]);
      tma_load(base + kStageA, &g.bt, k, g.bt_z_inner ? bt : n0, g.bt_z_inner ? n0 : bt, &landed[buffer]);
      ++loads;
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

    // Stages 0 .. kStages - 2 in flight before the first instruction.
    if (tid == 0)
      for (int kt = 0; kt < kStages - 1 && kt < k_tiles; ++kt) load_stage(kt);
    for (int kt = 0; kt < k_tiles; ++kt) {
      const int buffer = uses % kStages;
      barrier_wait(&landed[buffer], (uses / kStages) & 1);
      ++uses;
      const uint8_t* base = smem + buffer * stage_bytes(kN);
      const uint8_t* a = base + wg * 64 * kStageRowBytes;
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
          I::issue(swizzled_descriptor(a + s * kStepRowBytes), swizzled_descriptor(b + s * kStepRowBytes), acc);
      } else {
        for (int s = 0; s < n_steps; ++s)
          I::issue(swizzled_descriptor(a + s * kStepRowBytes), swizzled_descriptor(b + s * kStepRowBytes), acc);
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
      // Both warpgroups are done with stage kt - 1 (each waited for all but its last group): its buffer
      // takes stage kt + kStages - 1.
      __syncthreads();
      if (tid == 0 && kt + kStages - 1 < k_tiles) load_stage(kt + kStages - 1);
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
