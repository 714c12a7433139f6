// Backend "tc": the GPU's own tensor-core instructions, only where they provably give the target's bits.
//
// That holds when the target architecture is the GPU's own and the kernel runs the very instruction
// the target names, chained along K exactly as the hardware's MMA loop chains it (tc_gemm.cuh): the
// bits are then the hardware's by definition, nothing is emulated. mma.sync FP8 on sm_90 is lowered by
// the compiler to fp16 HMMAs; that lowering is what an sm_90 program runs, so it counts as the
// instruction too. Everything else is declined with the reason:
//   - a target other than the GPU (an sm89 target on an H200: its tensor cores give sm90's bits);
//   - a native block padded to equal a smaller target block (an emulation claim this backend does not
//     make: no proof that the padded lanes leave alignment and truncation unchanged);
//   - an instruction it has no kernel for (wgmma with N other than 8, 64, 128 and 256);
//   - a trace of a wide wgmma (only the step-at-a-time N = 8 kernel writes the accumulator per step);
#include <algorithm>
#include <climits>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/native_gemm_buffers.hpp"
#include "kernels/cuda/scratch_buffer.hpp"
#include "kernels/cuda/tc_gemm.cuh"
#include "kernels/cuda/tc_pipelined.cuh"
#include "kernels/cuda/tc_slices.hpp"
#include "kernels/cuda/tma_map.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

using Launch = double (*)(const GemmProblem&, size_t steps);

template <class I, bool kWgmma>
double run_native(const GemmProblem& p, size_t steps) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  NativeGemmBuffers<Operand, Acc> buf(p, steps);
  const GemmShape& s = p.shape;
  const GemmArgs<Operand, Acc> g = buf.args(p, steps);
  const dim3 grid(static_cast<unsigned>((s.N + tc::kTile - 1) / tc::kTile),
                  static_cast<unsigned>((s.M + tc::kTile - 1) / tc::kTile),
                  static_cast<unsigned>(std::min<size_t>(s.batch, 65535)));
  EventTimer timer;
  timer.start();
  // A trace exports the accumulator after every step: the step-at-a-time kernel. Otherwise the staged
  // one, which issues the same instructions on the same accumulators in the same K order.
  if constexpr (kWgmma) {
    if (p.trace)
      tc::wgmma_gemm<I><<<grid, tc::kThreads>>>(g);
    else
      tc::wgmma_gemm_staged<I><<<grid, tc::kThreads>>>(g);
  }
  else
    tc::mma_sync_gemm<I><<<grid, tc::kThreads>>>(g);
  cuda_check(cudaGetLastError(), "tc kernel launch");
  const double ms = timer.stop_ms();
  cuda_check_launch("tc kernel");
  buf.finish(p, steps, "tc");
  return ms;
}

// The pipelined kernel's dynamic shared memory, raised past the default once per instruction.
template <class I, tc::pipelined::Chain kChain = tc::pipelined::Chain::from_c>
void allow_pipelined_smem() {
  static const bool done = [] {
    cuda_check(cudaFuncSetAttribute(tc::pipelined::wgmma_gemm_pipelined<I, kChain>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    tc::pipelined::smem_bytes(I::kN)),
               "tc: shared memory of the pipelined kernel");
    return true;
  }();
  (void)done;
}

// The wide wgmma instructions: the pipelined GEMM (tc_pipelined.cuh). B is transposed to K-major first
// (and A's rows padded to 16-byte multiples when they are not), inside the timed work.
template <class I>
double run_pipelined(const GemmProblem& p, size_t steps) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  namespace pl = tc::pipelined;
  NativeGemmBuffers<Operand, Acc> buf(p, steps);
  const GemmShape& s = p.shape;
  const GemmArgs<Operand, Acc> g = buf.args(p, steps);
  constexpr int kElems = 16 / sizeof(Operand);
  const int ld = static_cast<int>((s.K + kElems - 1) / kElems * kElems);
  const bool pad_a = ld != static_cast<int>(s.K);
  DeviceBuffer<Operand> bt(s.batch * s.N * ld), a_padded(pad_a ? s.batch * s.M * ld : 0);
  const unsigned z = static_cast<unsigned>(std::min<size_t>(s.batch, 65535));
  const size_t lda = pad_a ? static_cast<size_t>(ld) : s.K;
  const TmaMap a = k_major_tensor_map({pad_a ? a_padded.get() : g.A, sizeof(Operand), s.K, s.M, lda, s.batch, lda * s.M},
                                      pl::kTileM),
               b = k_major_tensor_map({bt.get(), sizeof(Operand), s.K, s.N, static_cast<size_t>(ld), s.batch,
                                       s.N * static_cast<size_t>(ld)},
                                      I::kN);
  const pl::Args<Operand, Acc> args{a.map, b.map, g.C, g.D, g.M, g.N, g.K, g.steps, g.batch, a.z_inner, b.z_inner};
  allow_pipelined_smem<I>();
  const dim3 grid(static_cast<unsigned>((s.N + I::kN - 1) / I::kN),
                  static_cast<unsigned>((s.M + pl::kTileM - 1) / pl::kTileM), z);
  EventTimer timer;
  timer.start();
  pl::pack_k_major<Operand><<<dim3(static_cast<unsigned>((s.N + 31) / 32), static_cast<unsigned>((ld + 31) / 32), z),
                              dim3(32, 8)>>>(g.B, g.K, g.N, bt.get(), ld, g.batch);
  if (pad_a) pl::pad_rows<Operand><<<1024, 256>>>(g.A, g.M, g.K, a_padded.get(), ld, g.batch);
  pl::wgmma_gemm_pipelined<I><<<grid, pl::kThreads, pl::smem_bytes(I::kN)>>>(args);
  cuda_check(cudaGetLastError(), "tc kernel launch");
  const double ms = timer.stop_ms();
  cuda_check_launch("tc kernel");
  buf.finish(p, steps, "tc");
  return ms;
}

// ---- the library model's slices (tc_slices.hpp) ----------------------------------------------------------
// Columns [k_first + t * len, +len) of a K-major [rows][K] array as [count][rows][ld], zeros for k >= len:
// for rows that are not whole 16-byte chunks where a slice starts.
template <class T>
__global__ void gather_k_slices(const T* __restrict__ src, size_t rows, size_t K, size_t k_first, size_t len,
                                size_t count, size_t ld, T* __restrict__ out) {
  const size_t total = count * rows * ld, stride = size_t{gridDim.x} * blockDim.x;
  for (size_t o = blockIdx.x * size_t{blockDim.x} + threadIdx.x; o < total; o += stride) {
    const size_t t = o / (rows * ld), r = o / ld % rows, k = o % ld;
    out[o] = k < len ? src[r * K + k_first + t * len + k] : T(0);  // +0 in every format
  }
}

// One operand's slices as the pipelined kernel reads them: K-major rows starting on 16 bytes.
struct KMajorSlices {
  const void* data;
  int ld;               // elements between rows
  size_t slice_stride;  // elements between slices
};

// `src` is [rows][K] row-major (K-major) or, k_outer, [K][rows] row-major. Used in place where it is
// K-major and every slice's rows start on 16 bytes; else packed into `scratch`.
template <class T>
KMajorSlices k_major_slices(const void* src, bool k_outer, const TcSlices& s, size_t rows, ScratchBuffer<T>& scratch) {
  constexpr size_t kElems = 16 / sizeof(T);
  const T* x = static_cast<const T*>(src);
  const bool whole_chunks = s.K % kElems == 0 && s.k_first % kElems == 0 && s.len % kElems == 0 &&
                            reinterpret_cast<uintptr_t>(src) % 16 == 0;
  if (!k_outer && whole_chunks) return {x + s.k_first, static_cast<int>(s.K), s.len};
  const size_t ld = (s.len + kElems - 1) / kElems * kElems;
  scratch = ScratchBuffer<T>(s.count * rows * ld);
  if (k_outer) {
    const dim3 grid(static_cast<unsigned>((rows + 31) / 32), static_cast<unsigned>((ld + 31) / 32),
                    static_cast<unsigned>(std::min<size_t>(s.count, 65535)));
    tc::pipelined::pack_k_major<T><<<grid, dim3(32, 8)>>>(x + s.k_first * rows, static_cast<int>(s.len),
                                                           static_cast<int>(rows), scratch.get(), static_cast<int>(ld),
                                                           static_cast<int>(s.count));
  } else {
    const size_t total = s.count * rows * ld;
    gather_k_slices<T><<<static_cast<unsigned>(std::min<size_t>((total + 255) / 256, size_t{1} << 20)), 256>>>(
        x, rows, s.K, s.k_first, s.len, s.count, ld, scratch.get());
  }
  cuda_check(cudaGetLastError(), "tc slices: packing an operand K-major");
  return {scratch.get(), static_cast<int>(ld), rows * ld};
}

// FP8 promotion runs in kernels of an FP8 wgmma with fp32 accumulation, N <= 128 (the promoted sums
// take as many registers as the accumulator), promoting once per stage.
template <class I>
constexpr size_t kPromotionK = sizeof(typename I::Operand) == 1 && sizeof(typename I::Acc) == 4 && I::kN <= 128
                                   ? static_cast<size_t>(tc::pipelined::kStepsPerStage) * I::kK
                                   : 0;

template <class I, tc::pipelined::Chain kChain>
void launch_slices(const TcSlices& s) {
  using Operand = typename I::Operand;
  using Acc = typename I::Acc;
  namespace pl = tc::pipelined;
  ScratchBuffer<Operand> a_packed, b_packed;
  const KMajorSlices a = k_major_slices<Operand>(s.a, s.a_transposed, s, s.M, a_packed);
  const KMajorSlices b = k_major_slices<Operand>(s.b, !s.b_transposed, s, s.N, b_packed);
  const int steps = static_cast<int>((s.len + I::kK - 1) / I::kK);
  const TmaMap a_map = k_major_tensor_map({a.data, sizeof(Operand), s.len, s.M, static_cast<size_t>(a.ld), s.count,
                                           a.slice_stride},
                                          pl::kTileM),
               b_map = k_major_tensor_map({b.data, sizeof(Operand), s.len, s.N, static_cast<size_t>(b.ld), s.count,
                                           b.slice_stride},
                                          I::kN);
  // Every chain from +0, as the library's slices start: C is not read.
  const pl::Args<Operand, Acc> args{a_map.map, b_map.map, nullptr, s.partials, static_cast<int>(s.M), static_cast<int>(s.N),
                                    static_cast<int>(s.len), steps, static_cast<int>(s.count), a_map.z_inner,
                                    b_map.z_inner};
  allow_pipelined_smem<I, kChain>();
  const dim3 grid(static_cast<unsigned>((s.N + I::kN - 1) / I::kN),
                  static_cast<unsigned>((s.M + pl::kTileM - 1) / pl::kTileM),
                  static_cast<unsigned>(std::min<size_t>(s.count, 65535)));
  pl::wgmma_gemm_pipelined<I, kChain><<<grid, pl::kThreads, pl::smem_bytes(I::kN)>>>(args);
  cuda_check(cudaGetLastError(), "tc slices: kernel launch");
}

template <class I>
void run_slices(const TcSlices& s) {
  using tc::pipelined::Chain;
  if constexpr (sizeof(typename I::Acc) != sizeof(uint32_t)) {
    throw KernelError("tc slices: a 16-bit accumulator (declined)");
  } else if (s.promotion_k) {
    if constexpr (kPromotionK<I> != 0) launch_slices<I, Chain::promoted>(s);
    else throw KernelError("tc slices: no promoting kernel (declined)");
  } else {
    launch_slices<I, Chain::from_zero>(s);
  }
}

struct SliceKernel {
  std::string_view instr;
  void (*run)(const TcSlices&);
  int operand_bytes;
  bool acc32;
  size_t promotion_k;  // products per promotion of its promoting kernel; 0: none
};

const SliceKernel* find_slice_kernel(std::string_view instr) {
  static const std::vector<SliceKernel> table = {
#define MMAEMU_TC_SLICE_ROW(I, SPELLING) \
  {SPELLING, &run_slices<tc::I>, static_cast<int>(sizeof(tc::I::Operand)), sizeof(tc::I::Acc) == sizeof(uint32_t), \
   kPromotionK<tc::I>},
      MMAEMU_TC_WIDE_WGMMA(MMAEMU_TC_SLICE_ROW)
#undef MMAEMU_TC_SLICE_ROW
  };
  for (const SliceKernel& k : table)
    if (k.instr == instr) return &k;
  return nullptr;
}

struct NativeKernel {
  std::string_view instr;  // the catalogue's PTX spelling
  Launch launch;
};

const std::vector<NativeKernel>& native_kernels() {
  using namespace tc;
  static const std::vector<NativeKernel> table = {
      {"mma.m16n8k16.f32.f16.f16.f32", &run_native<MmaK16F32F16, false>},
      {"mma.m16n8k16.f32.bf16.bf16.f32", &run_native<MmaK16F32Bf16, false>},
      {"mma.m16n8k16.f16.f16.f16.f16", &run_native<MmaK16F16F16, false>},
      {"mma.m16n8k8.f32.f16.f16.f32", &run_native<MmaK8F32F16, false>},
      {"mma.m16n8k8.f32.bf16.bf16.f32", &run_native<MmaK8F32Bf16, false>},
      {"mma.m16n8k8.f16.f16.f16.f16", &run_native<MmaK8F16F16, false>},
      {"mma.m16n8k8.f32.tf32.tf32.f32", &run_native<MmaK8F32Tf32, false>},
      {"mma.m16n8k4.f32.tf32.tf32.f32", &run_native<MmaK4F32Tf32, false>},
      {"mma.m16n8k32.f32.e4m3.e4m3.f32", &run_native<MmaK32F32e4m3e4m3, false>},
      {"mma.m16n8k32.f32.e4m3.e5m2.f32", &run_native<MmaK32F32e4m3e5m2, false>},
      {"mma.m16n8k32.f32.e5m2.e4m3.f32", &run_native<MmaK32F32e5m2e4m3, false>},
      {"mma.m16n8k32.f32.e5m2.e5m2.f32", &run_native<MmaK32F32e5m2e5m2, false>},
      {"mma.m16n8k32.f16.e4m3.e4m3.f16", &run_native<MmaK32F16e4m3e4m3, false>},
      {"mma.m16n8k32.f16.e4m3.e5m2.f16", &run_native<MmaK32F16e4m3e5m2, false>},
      {"mma.m16n8k32.f16.e5m2.e4m3.f16", &run_native<MmaK32F16e5m2e4m3, false>},
      {"mma.m16n8k32.f16.e5m2.e5m2.f16", &run_native<MmaK32F16e5m2e5m2, false>},
      {"wgmma.m64n8k16.f32.f16.f16", &run_native<WgF32F16, true>},
      {"wgmma.m64n8k16.f16.f16.f16", &run_native<WgF16F16, true>},
      {"wgmma.m64n8k16.f32.bf16.bf16", &run_native<WgF32Bf16, true>},
      {"wgmma.m64n8k8.f32.tf32.tf32", &run_native<WgF32Tf32, true>},
      {"wgmma.m64n8k32.f32.e4m3.e4m3", &run_native<WgF32e4m3e4m3, true>},
      {"wgmma.m64n8k32.f32.e4m3.e5m2", &run_native<WgF32e4m3e5m2, true>},
      {"wgmma.m64n8k32.f32.e5m2.e4m3", &run_native<WgF32e5m2e4m3, true>},
      {"wgmma.m64n8k32.f32.e5m2.e5m2", &run_native<WgF32e5m2e5m2, true>},
      {"wgmma.m64n8k32.f16.e4m3.e4m3", &run_native<WgF16e4m3e4m3, true>},
      {"wgmma.m64n8k32.f16.e4m3.e5m2", &run_native<WgF16e4m3e5m2, true>},
      {"wgmma.m64n8k32.f16.e5m2.e4m3", &run_native<WgF16e5m2e4m3, true>},
      {"wgmma.m64n8k32.f16.e5m2.e5m2", &run_native<WgF16e5m2e5m2, true>},
#define MMAEMU_TC_WIDE_ROW(I, SPELLING) {SPELLING, &run_pipelined<I>},
      MMAEMU_TC_WIDE_WGMMA(MMAEMU_TC_WIDE_ROW)
#undef MMAEMU_TC_WIDE_ROW
  };
  return table;
}

const NativeKernel* find_native(std::string_view instr) {
  for (const NativeKernel& k : native_kernels())
    if (k.instr == instr) return &k;
  return nullptr;
}

// The architecture whose tensor cores this GPU has, when this build carries code for it
// (MMAEMU_CUDA_GENCODE: sm_80, sm_89, sm_90a; an sm_86 GPU runs the sm_80 code on its own units).
std::optional<ref::Arch> native_arch(int sm) {
  switch (sm) {
    case 80: return ref::Arch::sm80;
    case 86: return ref::Arch::sm86;
    case 89: return ref::Arch::sm89;
    case 90: return ref::Arch::sm90;
    default: return std::nullopt;
  }
}

class TcBackend final : public Backend {
 public:
  std::string name() const override { return "tc"; }
  std::string description() const override {
    return "the GPU's own mma.sync / wgmma (m64n8, and m64n64/128/256 in a pipelined GEMM), chained along K as the "
           "hardware does; only for a target equal to the GPU's architecture";
  }

  static bool same_block(const ref::BlockModel& x, const ref::BlockModel& y) {
    return x.block_k == y.block_k && x.frac_bits == y.frac_bits && x.truncation == y.truncation &&
           x.zero_product_exp == y.zero_product_exp && x.block_result == y.block_result && x.rounding == y.rounding &&
           x.rz_overflow_to_inf == y.rz_overflow_to_inf && x.tf32_input == y.tf32_input;
  }

  Declined declines(const ref::InstructionModel& model, const GemmShape& shape, bool wants_trace) const override {
    if (auto why = cuda_device_declines()) return why;
    const int sm = cuda_device_sm();
    const auto gpu = native_arch(sm);
    const std::string gpu_name = gpu ? std::string(ref::arch_name(*gpu)) : "sm" + std::to_string(sm);
    if (!gpu) return decline(DeclineCode::no_tensor_core_code, "tc: this build has no tensor-core code for this GPU (" + gpu_name + ")");
    if (model.arch != *gpu)
      return decline(DeclineCode::foreign_target, "tc: target " + std::string(ref::arch_name(model.arch)) +
                                                      " differs from this GPU (" + gpu_name + "); the tensor cores would give " +
                                                      gpu_name + "'s bits");
    // The tensor cores compute the architecture's own block: a model whose block differs from the
    // catalogue's (a study of another F or L, a doctored profile) is not what they give.
    if (!same_block(model.block, ref::lookup(model.arch, model.instr.name).block))
      return decline(DeclineCode::foreign_target,
                     "tc: the model's block differs from " + gpu_name + "'s own; the tensor cores give only their own");
    if (model.fma_chain)
      return decline(DeclineCode::fp64_fma_chain, "tc: fp64 mma (an IEEE fma chain) has no tensor-core kernel here; simt and host run it");
    if (!find_native(model.instr.name)) {
      if (ref::is_wide_n_variant(model.instr))
        return decline(DeclineCode::no_native_kernel, "tc: " + model.instr.name +
                                                          ": wgmma kernels are built for N = 8, 64, 128 and 256 (N = " +
                                                          std::to_string(model.instr.n) + ")");
      return decline(DeclineCode::no_native_kernel, "tc: no native kernel for " + model.instr.name);
    }
    if (wants_trace && ref::is_wide_n_variant(model.instr))
      return decline(DeclineCode::no_trace, "tc: " + model.instr.name +
                                                ": a trace comes only from the N = 8 kernel (the wide-N GEMM keeps the "
                                                "accumulator in flight between steps)");
    const size_t steps = ref::gemm_steps(model, shape.K);
    if (shape.M > INT_MAX || shape.N > INT_MAX || shape.K > INT_MAX || shape.batch > INT_MAX ||
        steps * model.instr.k > INT_MAX || (shape.M + tc::kTile - 1) / tc::kTile > 65535)
      return decline(DeclineCode::grid_limit, "tc: a dimension exceeds the kernel's grid");
    return std::nullopt;
  }

  Declined declines_device_operands() const override {
    return std::nullopt;  // NativeGemmBuffers narrows and widens them on the device
  }

  RunInfo run(const GemmProblem& p) const override {
    const NativeKernel* k = find_native(p.model->instr.name);
    if (!k) throw KernelError("tc: no native kernel for " + p.model->instr.name);
    RunInfo info{name(), 0};
    if (c_count(p.shape) == 0) return info;
    info.kernel_ms = k->launch(p, ref::gemm_steps(*p.model, p.shape.K));
    return info;
  }
};

}  // namespace

Declined tc_slices_declines(const ref::InstructionModel& model, const TcSlices& s) {
  const SliceKernel* k = find_slice_kernel(model.instr.name);
  if (!k) return decline(DeclineCode::no_native_kernel, "tc slices: no pipelined kernel for " + model.instr.name);
  if (!k->acc32) return decline(DeclineCode::format_not_implemented, "tc slices: " + model.instr.name + " accumulates in 16 bits");
  if (s.promotion_k && s.promotion_k != k->promotion_k)
    return decline(DeclineCode::no_native_kernel,
                   "tc slices: promotion every " + std::to_string(s.promotion_k) + " products; " + model.instr.name +
                       (k->promotion_k ? " promotes every " + std::to_string(k->promotion_k) : std::string(" has no promoting kernel")));
  const size_t padded_len = s.len + 16;
  if (s.M > INT_MAX || s.N > INT_MAX || s.K > INT_MAX || padded_len > INT_MAX || s.count > INT_MAX ||
      (s.M + tc::pipelined::kTileM - 1) / tc::pipelined::kTileM > 65535)
    return decline(DeclineCode::grid_limit, "tc slices: a dimension exceeds the kernel's grid");
  return std::nullopt;
}

int tc_slices_operand_bytes(const ref::InstructionModel& model) {
  const SliceKernel* k = find_slice_kernel(model.instr.name);
  return k ? k->operand_bytes : 0;
}

void tc_run_slices(const ref::InstructionModel& model, const TcSlices& s) {
  if (auto why = tc_slices_declines(model, s)) throw KernelError(why->detail);
  if (s.M * s.N * s.count == 0) return;
  find_slice_kernel(model.instr.name)->run(s);
}

const Backend& tc_backend() {
  static const TcBackend backend;
  return backend;
}

}  // namespace mmaemu::kernels
