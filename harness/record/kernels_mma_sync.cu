// mma.sync recording kernels: one warp per tile, fragments gathered from the contract layout.
#include <cstdint>

#include "kernels/cuda/fragment_layout.hpp"
#include "harness/record/kernel_table.hpp"

namespace mmaemu::record {

namespace layout = kernels::layout;
namespace {

// The instruction with f32 accumulators: A in 4 registers, B in 2, C and D in 4 (raw bits through
// float registers: moves between b32 and f32 registers keep every bit, NaN payloads included).
#define MMAEMU_MMA_F32_ACC(PTX)                                                                            \
  do {                                                                                                     \
    float d0, d1, d2, d3;                                                                                  \
    asm volatile(PTX " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"              \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                                  \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),                       \
                   "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])),     \
                   "f"(__uint_as_float(c[3])));                                                            \
    d[0] = __float_as_uint(d0), d[1] = __float_as_uint(d1), d[2] = __float_as_uint(d2),                   \
    d[3] = __float_as_uint(d3);                                                                            \
  } while (0)

using Regs4 = uint32_t[4];
using Regs2 = uint32_t[2];

struct MmaF32F16 {
  using Operand = uint16_t;
  using Acc = uint32_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
    MMAEMU_MMA_F32_ACC("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  }
};

struct MmaF32Bf16 {
  using Operand = uint16_t;
  using Acc = uint32_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
    MMAEMU_MMA_F32_ACC("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  }
};

struct MmaF16F16 {  // f16 accumulators: C and D in 2 registers of two halves each
  using Operand = uint16_t;
  using Acc = uint16_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
        : "=r"(d[0]), "=r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
  }
};

struct MmaF32Tf32 {
  using Operand = uint32_t;
  using Acc = uint32_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
    MMAEMU_MMA_F32_ACC("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
  }
};

// FP8 mma.sync exists from sm_89; the sm_80 build of these kernels traps (never launched there).
struct MmaF32E4m3 {
  using Operand = uint8_t;
  using Acc = uint32_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    MMAEMU_MMA_F32_ACC("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
#else
    __trap();
#endif
  }
};

struct MmaF32E5m2 {
  using Operand = uint8_t;
  using Acc = uint32_t;
  __device__ static void mma(const Regs4& a, const Regs2& b, const Regs4& c, Regs4& d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    MMAEMU_MMA_F32_ACC("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32");
#else
    __trap();
#endif
  }
};

template <class I>
__global__ void __launch_bounds__(32) mma_sync_tiles(const typename I::Operand* A, const typename I::Operand* B,
                                                     const typename I::Acc* C, typename I::Acc* D) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  constexpr int P = 4 / sizeof(Operand);  // operand elements per 32-bit register
  constexpr int M = 16, N = 8, K = 8 * P;
  constexpr int kAccPerReg = 4 / sizeof(Acc);
  constexpr int kOperandBits = 8 * sizeof(Operand), kAccBits = 8 * sizeof(Acc);
  const int lane = threadIdx.x;
  const size_t tile = blockIdx.x;
  A += tile * M * K;
  B += tile * K * N;
  C += tile * M * N;
  D += tile * M * N;

  uint32_t a[4] = {}, b[2] = {}, c[4] = {}, d[4] = {};
  for (int reg = 0; reg < 4; ++reg)
    for (int i = 0; i < P; ++i) {
      const layout::RowCol rc = layout::mma_a(lane, reg, i, P);
      a[reg] |= static_cast<uint32_t>(A[rc.row * K + rc.col]) << (i * kOperandBits % 32);
    }
  for (int reg = 0; reg < 2; ++reg)
    for (int i = 0; i < P; ++i) {
      const layout::RowCol rc = layout::mma_b(lane, reg, i, P);
      b[reg] |= static_cast<uint32_t>(B[rc.row * N + rc.col]) << (i * kOperandBits % 32);
    }
  for (int e = 0; e < 4; ++e) {
    const layout::RowCol rc = layout::mma_c(lane, e);
    c[e / kAccPerReg] |= static_cast<uint32_t>(C[rc.row * N + rc.col]) << ((e % kAccPerReg) * kAccBits % 32);
  }
  I::mma(a, b, c, d);
  for (int e = 0; e < 4; ++e) {
    const layout::RowCol rc = layout::mma_c(lane, e);
    D[rc.row * N + rc.col] = static_cast<Acc>(d[e / kAccPerReg] >> ((e % kAccPerReg) * kAccBits % 32));
  }
}

// fp64 mma (DMMA): one binary64 element per register, A in KA registers, B in KB, C and D in MN / 32.
// The fragments are those of the 32-bit formats with one element per register (PTX ISA, "Matrix
// Fragments for mma.m8n8k4 / m16n8k4 / m16n8k8 / m16n8k16 with .f64"), so layout::mma_a/mma_b/mma_c
// with P = 1 place them; m8n8k4 uses their first rows.
template <int M, int K>
struct MmaF64 {
  static constexpr int kA = M * K / 32, kB = K * 8 / 32, kC = M * 8 / 32;
  __device__ static void mma(const double (&a)[kA], const double (&b)[kB], const double (&c)[kC], double (&d)[kC]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (M == 8) {
      asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
                   : "=d"(d[0]), "=d"(d[1])
                   : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
    } else {
#if __CUDA_ARCH__ >= 900
      if constexpr (K == 4)
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%7, %8, %9, %10};\n"
                     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                     : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
      else if constexpr (K == 8)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%10, %11, %12, %13};\n"
                     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]),
                       "d"(c[2]), "d"(c[3]));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};\n"
                     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                       "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
      __trap();
#endif
    }
#else
    __trap();
#endif
  }
};

template <int M, int K>
__global__ void __launch_bounds__(32) mma_f64_tiles(const double* A, const double* B, const double* C, double* D) {
  using I = MmaF64<M, K>;
  constexpr int N = 8;
  const int lane = threadIdx.x;
  const size_t tile = blockIdx.x;
  A += tile * M * K;
  B += tile * K * N;
  C += tile * M * N;
  D += tile * M * N;
  double a[I::kA], b[I::kB], c[I::kC], d[I::kC];
  for (int r = 0; r < I::kA; ++r) {
    const layout::RowCol rc = layout::mma_a(lane, r, 0, 1);
    a[r] = A[rc.row * K + rc.col];
  }
  for (int r = 0; r < I::kB; ++r) {
    const layout::RowCol rc = layout::mma_b(lane, r, 0, 1);
    b[r] = B[rc.row * N + rc.col];
  }
  for (int e = 0; e < I::kC; ++e) {
    const layout::RowCol rc = layout::mma_c(lane, e);
    c[e] = C[rc.row * N + rc.col];
  }
  I::mma(a, b, c, d);
  for (int e = 0; e < I::kC; ++e) {
    const layout::RowCol rc = layout::mma_c(lane, e);
    D[rc.row * N + rc.col] = d[e];
  }
}

template <int M, int K>
void launch_f64(const void* a, const void* b, const void* c, void* d, int tiles, cudaStream_t stream) {
  mma_f64_tiles<M, K><<<tiles, 32, 0, stream>>>(static_cast<const double*>(a), static_cast<const double*>(b),
                                                static_cast<const double*>(c), static_cast<double*>(d));
}

template <class I>
void launch(const void* a, const void* b, const void* c, void* d, int tiles, cudaStream_t stream) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  mma_sync_tiles<I><<<tiles, 32, 0, stream>>>(static_cast<const Operand*>(a), static_cast<const Operand*>(b),
                                              static_cast<const Acc*>(c), static_cast<Acc*>(d));
}

}  // namespace

const std::vector<KernelEntry>& mma_sync_kernels() {
  static const std::vector<KernelEntry> entries = {
      {"mma.m16n8k16.f32.f16.f16.f32", 80, 0, &launch<MmaF32F16>},
      {"mma.m16n8k16.f32.bf16.bf16.f32", 80, 0, &launch<MmaF32Bf16>},
      {"mma.m16n8k16.f16.f16.f16.f16", 80, 0, &launch<MmaF16F16>},
      {"mma.m16n8k8.f32.tf32.tf32.f32", 80, 0, &launch<MmaF32Tf32>},
      {"mma.m16n8k32.f32.e4m3.e4m3.f32", 89, 0, &launch<MmaF32E4m3>},
      {"mma.m16n8k32.f32.e5m2.e5m2.f32", 89, 0, &launch<MmaF32E5m2>},
      {"mma.m8n8k4.f64.f64.f64.f64", 80, 0, &launch_f64<8, 4>},
      {"mma.m16n8k4.f64.f64.f64.f64", 90, 0, &launch_f64<16, 4>},
      {"mma.m16n8k8.f64.f64.f64.f64", 90, 0, &launch_f64<16, 8>},
      {"mma.m16n8k16.f64.f64.f64.f64", 90, 0, &launch_f64<16, 16>},
  };
  return entries;
}

const KernelEntry* find_kernel(std::string_view instr) {
  for (const auto* table : {&mma_sync_kernels(), &wgmma_kernels()})
    for (const KernelEntry& e : *table)
      if (e.instr == instr) return &e;
  return nullptr;
}

}  // namespace mmaemu::record
