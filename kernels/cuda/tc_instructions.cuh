// The GPU's own MMA instructions, one struct per PTX instruction, for the "tc" backend.
//
// Every struct runs exactly one instruction with D = A*B + C on raw bit patterns:
//   mma.sync (one warp):       A in kARegs registers, B in kBRegs, C and D in kCRegs (f32: 4; f16: 2
//                              registers of two halves each). Element placement: fragment_layout.hpp.
//   wgmma m64nN (one warpgroup; N = 8 here, 64 / 128 / 256 in wgmma_wide.inc): A and B in shared memory (no-swizzle K-major, fragment_layout.hpp's
//                              kmajor_offset), reached through matrix descriptors; C and D in registers.
// Operands move through b32 / f32 registers unchanged (every bit, NaN payloads included).
// Code the target GPU cannot run is compiled as __trap(): it is never launched there, because the
// backend declines every instruction whose architecture differs from the GPU's.
#pragma once
#include <cstdint>

#include "kernels/cuda/fragment_layout.hpp"

namespace mmaemu::kernels::tc {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define MMAEMU_TC_SM89(...) __VA_ARGS__
#else
#define MMAEMU_TC_SM89(...) __trap()
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MMAEMU_TC_SM90A(...) __VA_ARGS__
#else
#define MMAEMU_TC_SM90A(...) __trap()
#endif

// ---- mma.sync ---------------------------------------------------------------------------------------
// f32 accumulators: 4 registers; A in 4 (or 2) registers, B in 2 (or 1).
#define MMAEMU_TC_MMA_F32_A4(PTX)                                                                         \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"                        \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                           \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), \
                 "r"(c[2]), "r"(c[3]))
#define MMAEMU_TC_MMA_F32_A2(PTX)                                                                         \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"                                    \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                           \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
// f16 accumulators: 2 registers of two halves.
#define MMAEMU_TC_MMA_F16_A4(PTX)                                                                         \
  asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"                                        \
               : "=r"(d[0]), "=r"(d[1])                                                                   \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]))
#define MMAEMU_TC_MMA_F16_A2(PTX)                                                                         \
  asm volatile(PTX " {%0,%1}, {%2,%3}, {%4}, {%5,%6};\n"                                                 \
               : "=r"(d[0]), "=r"(d[1])                                                                   \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]))

// One mma.sync instruction. OPERAND: storage type of A and B; ACC: of C and D; K: the instruction's K;
// AREGS: 4 or 2 (then B has AREGS / 2 registers); BODY: one of the macros above, GUARD the arch guard.
#define MMAEMU_TC_MMA_SYNC(NAME, OPERAND, ACC, KK, AREGS, GUARD, BODY, PTX)                     \
  struct NAME {                                                                                 \
    using Operand = OPERAND;                                                                    \
    using Acc = ACC;                                                                            \
    static constexpr int kK = KK, kARegs = AREGS, kBRegs = AREGS / 2;                           \
    __device__ static void mma(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) { \
      GUARD(BODY("mma.sync.aligned." PTX));                                                     \
    }                                                                                           \
  };

#define MMAEMU_TC_ANY(...) __VA_ARGS__

// 16-bit inputs (sm_80+)
MMAEMU_TC_MMA_SYNC(MmaK16F32F16, uint16_t, uint32_t, 16, 4, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A4, "m16n8k16.row.col.f32.f16.f16.f32")
MMAEMU_TC_MMA_SYNC(MmaK16F32Bf16, uint16_t, uint32_t, 16, 4, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A4, "m16n8k16.row.col.f32.bf16.bf16.f32")
MMAEMU_TC_MMA_SYNC(MmaK16F16F16, uint16_t, uint16_t, 16, 4, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F16_A4, "m16n8k16.row.col.f16.f16.f16.f16")
MMAEMU_TC_MMA_SYNC(MmaK8F32F16, uint16_t, uint32_t, 8, 2, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A2, "m16n8k8.row.col.f32.f16.f16.f32")
MMAEMU_TC_MMA_SYNC(MmaK8F32Bf16, uint16_t, uint32_t, 8, 2, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A2, "m16n8k8.row.col.f32.bf16.bf16.f32")
MMAEMU_TC_MMA_SYNC(MmaK8F16F16, uint16_t, uint16_t, 8, 2, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F16_A2, "m16n8k8.row.col.f16.f16.f16.f16")
// tf32 (fp32 patterns, read by the hardware as tf32)
MMAEMU_TC_MMA_SYNC(MmaK8F32Tf32, uint32_t, uint32_t, 8, 4, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A4, "m16n8k8.row.col.f32.tf32.tf32.f32")
MMAEMU_TC_MMA_SYNC(MmaK4F32Tf32, uint32_t, uint32_t, 4, 2, MMAEMU_TC_ANY, MMAEMU_TC_MMA_F32_A2, "m16n8k4.row.col.f32.tf32.tf32.f32")
// FP8 (sm_89+; on sm_90 the compiler lowers it to fp16 HMMAs, which is what that GPU runs)
#define MMAEMU_TC_FP8(A, B)                                                                                  \
  MMAEMU_TC_MMA_SYNC(MmaK32F32##A##B, uint8_t, uint32_t, 32, 4, MMAEMU_TC_SM89, MMAEMU_TC_MMA_F32_A4,       \
                     "m16n8k32.row.col.f32." #A "." #B ".f32")                                               \
  MMAEMU_TC_MMA_SYNC(MmaK32F16##A##B, uint8_t, uint16_t, 32, 4, MMAEMU_TC_SM89, MMAEMU_TC_MMA_F16_A4,       \
                     "m16n8k32.row.col.f16." #A "." #B ".f16")
MMAEMU_TC_FP8(e4m3, e4m3)
MMAEMU_TC_FP8(e4m3, e5m2)
MMAEMU_TC_FP8(e5m2, e4m3)
MMAEMU_TC_FP8(e5m2, e5m2)

// ---- wgmma m64n8 ------------------------------------------------------------------------------------
// Shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address, leading and
// stride byte offsets in 16-byte units; base offset 0, no swizzle.
__device__ inline uint64_t smem_descriptor(const void* smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) |
         static_cast<uint64_t>(layout::kLeadingByteOffset >> 4) << 16 |
         static_cast<uint64_t>(layout::kStrideByteOffset >> 4) << 32;
}

// fence, issue, commit and wait in one statement: the accumulator registers are never touched while the
// asynchronous instruction owns them. IMM: the immediates after scale-d.
#define MMAEMU_TC_WGMMA_F32(PTX, IMM)                                                                    \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\nwgmma.fence.sync.aligned;\n" PTX                \
               " {%0, %1, %2, %3}, %4, %5, p, " IMM ";\nwgmma.commit_group.sync.aligned;\n"              \
               "wgmma.wait_group.sync.aligned 0;\n}\n"                                                   \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                          \
               : "l"(desc_a), "l"(desc_b), "r"(1)                                                        \
               : "memory")
#define MMAEMU_TC_WGMMA_F16(PTX, IMM)                                                                    \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\nwgmma.fence.sync.aligned;\n" PTX                \
               " {%0, %1}, %2, %3, p, " IMM ";\nwgmma.commit_group.sync.aligned;\n"                      \
               "wgmma.wait_group.sync.aligned 0;\n}\n"                                                   \
               : "+r"(d[0]), "+r"(d[1])                                                                  \
               : "l"(desc_a), "l"(desc_b), "r"(1)                                                        \
               : "memory")

// The same instruction issued alone: no fence, commit or wait, so that a warpgroup can issue many of
// them (each on its own accumulator registers, or chained on the same ones in K order) and wait once.
// The caller brackets them with wg_fence() ... wg_commit(); wg_wait_all().
#define MMAEMU_TC_WGMMA_F32_ISSUE(PTX, IMM)                                                              \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n" PTX " {%0, %1, %2, %3}, %4, %5, p, " IMM ";\n}\n" \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                          \
               : "l"(desc_a), "l"(desc_b), "r"(1)                                                        \
               : "memory")
#define MMAEMU_TC_WGMMA_F16_ISSUE(PTX, IMM)                                                              \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n" PTX " {%0, %1}, %2, %3, p, " IMM ";\n}\n"        \
               : "+r"(d[0]), "+r"(d[1])                                                                  \
               : "l"(desc_a), "l"(desc_b), "r"(1)                                                        \
               : "memory")

__device__ inline void wg_fence() { MMAEMU_TC_SM90A(asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory")); }
__device__ inline void wg_commit() { MMAEMU_TC_SM90A(asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory")); }
__device__ inline void wg_wait_all() { MMAEMU_TC_SM90A(asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory")); }
// Waits until at most `kPending` committed groups of this warpgroup are still running.
template <int kPending>
__device__ inline void wg_wait() {
  MMAEMU_TC_SM90A(asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory"));
}
// Keeps the compiler from moving reads or writes of an accumulator register across an asynchronous
// wgmma that owns it (issue ... wait): an empty asm that claims to read and write the register.
__device__ __forceinline__ void fence_register(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }

// One wgmma m64n8 instruction; d holds the accumulator (C in, D out). mma: fenced, committed and
// waited for; issue: see above.
#define MMAEMU_TC_WGMMA(NAME, OPERAND, ACC, KK, BODY, PTX, IMM)                                   \
  struct NAME {                                                                                   \
    using Operand = OPERAND;                                                                      \
    using Acc = ACC;                                                                              \
    static constexpr int kK = KK;                                                                 \
    __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t* d) {                   \
      MMAEMU_TC_SM90A(BODY("wgmma.mma_async.sync.aligned." PTX, IMM));                             \
    }                                                                                             \
    __device__ static void issue(uint64_t desc_a, uint64_t desc_b, uint32_t* d) {                 \
      MMAEMU_TC_SM90A(BODY##_ISSUE("wgmma.mma_async.sync.aligned." PTX, IMM));                     \
    }                                                                                             \
  };

MMAEMU_TC_WGMMA(WgF32F16, uint16_t, uint32_t, 16, MMAEMU_TC_WGMMA_F32, "m64n8k16.f32.f16.f16", "1, 1, 0, 0")
MMAEMU_TC_WGMMA(WgF16F16, uint16_t, uint16_t, 16, MMAEMU_TC_WGMMA_F16, "m64n8k16.f16.f16.f16", "1, 1, 0, 0")
MMAEMU_TC_WGMMA(WgF32Bf16, uint16_t, uint32_t, 16, MMAEMU_TC_WGMMA_F32, "m64n8k16.f32.bf16.bf16", "1, 1, 0, 0")
MMAEMU_TC_WGMMA(WgF32Tf32, uint32_t, uint32_t, 8, MMAEMU_TC_WGMMA_F32, "m64n8k8.f32.tf32.tf32", "1, 1")
#define MMAEMU_TC_WG_FP8(A, B)                                                                               \
  MMAEMU_TC_WGMMA(WgF32##A##B, uint8_t, uint32_t, 32, MMAEMU_TC_WGMMA_F32, "m64n8k32.f32." #A "." #B, "1, 1") \
  MMAEMU_TC_WGMMA(WgF16##A##B, uint8_t, uint16_t, 32, MMAEMU_TC_WGMMA_F16, "m64n8k32.f16." #A "." #B, "1, 1")
MMAEMU_TC_WG_FP8(e4m3, e4m3)
MMAEMU_TC_WG_FP8(e4m3, e5m2)
MMAEMU_TC_WG_FP8(e5m2, e4m3)
MMAEMU_TC_WG_FP8(e5m2, e5m2)

// ---- wgmma m64n64, m64n128, m64n256 (generated) -------------------------------------------------------
#include "kernels/cuda/wgmma_wide.inc"

}  // namespace mmaemu::kernels::tc
