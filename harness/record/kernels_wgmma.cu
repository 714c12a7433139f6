// wgmma recording kernels (sm_90a): one warpgroup per tile. A and B go to shared memory in the
// no-swizzle K-major layout and reach the instruction through matrix descriptors; C is loaded into
// the accumulator registers and the instruction runs with scale-d = 1 (D = A*B + C).
#include <cstdint>

#include "kernels/cuda/fragment_layout.hpp"
#include "harness/record/kernel_table.hpp"

namespace mmaemu::record {

namespace layout = kernels::layout;
namespace {

// Shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address, leading and
// stride byte offsets, all in 16-byte units; base offset 0 and swizzle mode 0 (none).
__device__ uint64_t smem_descriptor(const void* smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) |
         static_cast<uint64_t>(layout::kLeadingByteOffset >> 4) << 16 |
         static_cast<uint64_t>(layout::kStrideByteOffset >> 4) << 32;
}

// fence, issue, commit and wait in one asm statement, so the accumulator registers are never read
// while the asynchronous instruction owns them. IMM: the immediate operands after scale-d.
#define MMAEMU_WGMMA(PTX, IMM)                                                                            \
  do {                                                                                                    \
    float d0 = __uint_as_float(d[0]), d1 = __uint_as_float(d[1]), d2 = __uint_as_float(d[2]),            \
          d3 = __uint_as_float(d[3]);                                                                     \
    asm volatile(                                                                                         \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\nwgmma.fence.sync.aligned;\n" PTX                        \
        " {%0, %1, %2, %3}, %4, %5, p, " IMM ";\nwgmma.commit_group.sync.aligned;\n"                       \
        "wgmma.wait_group.sync.aligned 0;\n}\n"                                                           \
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)                                                          \
        : "l"(desc_a), "l"(desc_b), "r"(1)                                                                \
        : "memory");                                                                                      \
    d[0] = __float_as_uint(d0), d[1] = __float_as_uint(d1), d[2] = __float_as_uint(d2),                  \
    d[3] = __float_as_uint(d3);                                                                           \
  } while (0)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MMAEMU_SM90A(...) __VA_ARGS__
#else
#define MMAEMU_SM90A(...) __trap()
#endif

struct WgmmaF16 {
  using Operand = uint16_t;
  __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t (&d)[4]) {
    MMAEMU_SM90A(MMAEMU_WGMMA("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "1, 1, 0, 0"));
  }
};

struct WgmmaBf16 {
  using Operand = uint16_t;
  __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t (&d)[4]) {
    MMAEMU_SM90A(MMAEMU_WGMMA("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", "1, 1, 0, 0"));
  }
};

struct WgmmaTf32 {
  using Operand = uint32_t;
  __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t (&d)[4]) {
    MMAEMU_SM90A(MMAEMU_WGMMA("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", "1, 1"));
  }
};

struct WgmmaE4m3 {
  using Operand = uint8_t;
  __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t (&d)[4]) {
    MMAEMU_SM90A(MMAEMU_WGMMA("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3", "1, 1"));
  }
};

struct WgmmaE5m2 {
  using Operand = uint8_t;
  __device__ static void mma(uint64_t desc_a, uint64_t desc_b, uint32_t (&d)[4]) {
    MMAEMU_SM90A(MMAEMU_WGMMA("wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2", "1, 1"));
  }
};

template <class I>
__global__ void __launch_bounds__(128) wgmma_tiles(const typename I::Operand* A, const typename I::Operand* B,
                                                   const uint32_t* C, uint32_t* D) {
  using Operand = typename I::Operand;
  constexpr int M = 64, N = 8, K = 32 / sizeof(Operand);  // one wgmma consumes 32 bytes of K
  __shared__ __align__(128) uint8_t smem_a[M * 32];
  __shared__ __align__(128) uint8_t smem_b[N * 32];
  const int tid = threadIdx.x;
  const size_t tile = blockIdx.x;
  A += tile * M * K;
  B += tile * K * N;
  C += tile * M * N;
  D += tile * M * N;

  for (int i = tid; i < M * K; i += 128)  // A[m][k]: rows are M
    *reinterpret_cast<Operand*>(smem_a + layout::kmajor_offset(i / K, i % K, sizeof(Operand))) = A[i];
  for (int i = tid; i < K * N; i += 128)  // B[k][n] stored K-major: rows are N
    *reinterpret_cast<Operand*>(smem_b + layout::kmajor_offset(i % N, i / N, sizeof(Operand))) = B[i];
  // Make the generic-proxy stores visible to the tensor core's async proxy, then to the whole group.
  MMAEMU_SM90A(asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"));
  __syncthreads();

  uint32_t d[4];
  for (int e = 0; e < 4; ++e) {
    const layout::RowCol rc = layout::wgmma_d(tid, e);
    d[e] = C[rc.row * N + rc.col];
  }
  I::mma(smem_descriptor(smem_a), smem_descriptor(smem_b), d);
  for (int e = 0; e < 4; ++e) {
    const layout::RowCol rc = layout::wgmma_d(tid, e);
    D[rc.row * N + rc.col] = d[e];
  }
}

template <class I>
void launch(const void* a, const void* b, const void* c, void* d, int tiles, cudaStream_t stream) {
  using Operand = typename I::Operand;
  wgmma_tiles<I><<<tiles, 128, 0, stream>>>(static_cast<const Operand*>(a), static_cast<const Operand*>(b),
                                            static_cast<const uint32_t*>(c), static_cast<uint32_t*>(d));
}

}  // namespace

const std::vector<KernelEntry>& wgmma_kernels() {
  static const std::vector<KernelEntry> entries = {
      {"wgmma.m64n8k16.f32.f16.f16", 90, 90, &launch<WgmmaF16>},
      {"wgmma.m64n8k16.f32.bf16.bf16", 90, 90, &launch<WgmmaBf16>},
      {"wgmma.m64n8k8.f32.tf32.tf32", 90, 90, &launch<WgmmaTf32>},
      {"wgmma.m64n8k32.f32.e4m3.e4m3", 90, 90, &launch<WgmmaE4m3>},
      {"wgmma.m64n8k32.f32.e5m2.e5m2", 90, 90, &launch<WgmmaE5m2>},
  };
  return entries;
}

}  // namespace mmaemu::record
