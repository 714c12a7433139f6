// One output of a library GEMM (cuBLASLt's kernels as reference/library_gemm.hpp models them) in the
// kernels' own arithmetic: the instruction's block chains of emu_dot.hpp for each K slice, fp32 FMA
// chains for SIMT kernels, FP8 promotion, the slices' reduction and the epilogue, all in IEEE fp32 with
// explicit rounding (no contraction the compiler could choose). The decisions (which slices, the
// order of their reduction, which epilogue, alpha') come from ref::plan_library_gemm through
// LibraryParams; this file only computes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/arith/emu_dot.hpp"

namespace mmaemu::ref {
struct InstructionModel;
}

namespace mmaemu::kernels::arith {

// The most steps a reduction may have here (one per slice at most): the plan's order travels to the
// GPU inside the kernel's parameters.
inline constexpr uint32_t kMaxReductionSteps = 512;
inline constexpr uint16_t kAloneInStep = 0xFFFF;  // reduction_second: the step is one slice alone

struct LibraryParams {
  OpParams instr{};           // the wgmma chained along K (unused when simt_fp32)
  // The same instruction's model, for the host side only (never read on the device): the GPU engine runs
  // the slices' chains on the tensor cores with it where the GPU is its architecture (kernels/cuda/library_gemm.cu).
  const ref::InstructionModel* main_loop = nullptr;
  bool simt_fp32 = false;     // fp32 SIMT kernels: FMA chains
  bool tf32_rounded = false;  // A and B rounded fp32 -> tf32 (nearest-even) before the instruction reads them
  uint32_t promotion_k = 0;   // FP8 without fast accumulation: products per promotion into fp32
  uint32_t slices = 1;
  uint64_t chunk = 0;             // consecutive slices' length
  uint32_t residue_first = 0;     // tf32 K tail: the slice's first (length mod this) products first
  uint32_t interleave_block = 0;  // algorithm 55: K blocks dealt to the slices in turn
  // ref::LibraryPlan::reduction: step i adds slice reduction_first[i]'s partial, with slice
  // reduction_second[i]'s added to it first unless that is kAloneInStep.
  uint32_t reduction_steps = 0;
  uint16_t reduction_first[kMaxReductionSteps] = {};
  uint16_t reduction_second[kMaxReductionSteps] = {};
  bool partials_in_output_type = false;  // each slice's partial rounded to D's type before the reduction
  bool in_place_slices = false;  // reduction scheme 1: each slice added into D in its type (ref::LibraryPlan)
  bool beta_fma = false;          // fma(beta, C, alpha * acc), else fma(alpha, acc, beta * C)
  bool beta_zero = false;         // C not read
  // ref::BiasEpilogue as its number: 0 none, 1 bias added once (beta 1's form), 2 in place (D starts as
  // the bias, each slice added and rounded to D's type in turn), 3 after D's rounding.
  uint8_t bias = 0;
  float alpha = 1.0f, beta = 0.0f;
  FmtParams c{}, d{};
};

MMAEMU_HD float f32_of(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
#endif
}
MMAEMU_HD uint32_t bits_of(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
#endif
}
MMAEMU_HD float add_rn(float x, float y) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(x, y);
#else
  return x + y;
#endif
}
MMAEMU_HD float mul_rn(float x, float y) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(x, y);
#else
  return x * y;
#endif
}
MMAEMU_HD float fma_rn(float x, float y, float z) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(x, y, z);
#else
  return __builtin_fmaf(x, y, z);
#endif
}

// convert() for the epilogue, whose formats are often one and the same (fp32 C and D): within one format
// every value is exact and only a NaN changes (to the canonical one); patterns with bits past the storage
// width or below man_shift take the general path, which drops them. Not inside convert() itself: its
// other callers (tiled-fp64's inner loops) spill registers with the extra test (ptxas, tf32 on sm_90a).
MMAEMU_HD uint32_t convert_epilogue(const FmtParams& from, uint32_t bits, const FmtParams& to) {
  if (from.id == to.id && from.man_shift == 0 && (from.storage_bits == 32 || bits >> from.storage_bits == 0))
    return decode(from, bits).cls == Cls::nan ? canonical_nan(to) : bits;
  return convert(from, bits, to, true);
}

// A[k] / B[k] of one output as the library's kernel reads them (tf32: rounded to nearest-even).
struct LibraryLoad {
  const LibraryParams& p;
  const uint32_t* a;
  const uint32_t* b;
  size_t b_stride;
  MMAEMU_HD uint32_t a_at(size_t k) const {
    return p.tf32_rounded ? convert(fmt_params(Fmt::fp32), a[k], fmt_params(Fmt::tf32), true) : a[k];
  }
  MMAEMU_HD uint32_t b_at(size_t k) const {
    const uint32_t x = b[k * b_stride];
    return p.tf32_rounded ? convert(fmt_params(Fmt::fp32), x, fmt_params(Fmt::tf32), true) : x;
  }
};

// The instruction's block chain over k in [k0, k0 + n), from the accumulator bits `acc`.
struct LibraryStepLoad {
  const LibraryLoad& in;
  size_t base;
  int valid;
  MMAEMU_HD void operator()(int i, uint32_t& x, uint32_t& y) const {
    if (i < valid) {
      x = in.a_at(base + static_cast<size_t>(i));
      y = in.b_at(base + static_cast<size_t>(i));
    } else {
      x = 0;
      y = 0;
    }
  }
};
MMAEMU_HD uint32_t library_chain(const LibraryLoad& in, size_t k0, size_t n, uint32_t acc) {
  const size_t k = static_cast<size_t>(in.p.instr.instr.k);
  for (size_t s = 0; s < n; s += k) {
    const LibraryStepLoad load{in, k0 + s, static_cast<int>(n - s < k ? n - s : k)};
    acc = emu_step(in.p.instr, load, acc);
  }
  return acc;
}

// How a consecutive slice of n products is cut into the segments its chains run over: the segment
// that starts `done` products in is promotion_k products long (FP8 promotion: each segment's chain from
// +0, added into fp32), or the residue n mod residue_first first (the tf32 K tail, the rest's chain
// continuing it), else the rest. The one rule for this loop and the cpu backend's lanes
// (kernels/cpu/library_lanes.cpp).
MMAEMU_HD size_t library_segment(const LibraryParams& p, size_t n, size_t done) {
  const size_t rest = n - done;
  if (p.promotion_k) return rest < p.promotion_k ? rest : p.promotion_k;
  const size_t residue = p.residue_first ? n % p.residue_first : 0;
  return done == 0 && residue ? residue : rest;
}

// One consecutive slice [k0, k0 + n) from +0: one block chain, or (FP8 promotion) chains of
// promotion_k products each from +0 added into fp32, or (tf32 K tail) the residue's chain continued by
// the rest's. One call site of the chain, so that the GPU build inlines the emulation once.
MMAEMU_HD float library_slice(const LibraryLoad& in, size_t k0, size_t n) {
  const LibraryParams& p = in.p;
  if (p.simt_fp32) {
    float acc = 0.0f;
    for (size_t k = k0; k < k0 + n; ++k) acc = fma_rn(f32_of(in.a_at(k)), f32_of(in.b_at(k)), acc);
    return acc;
  }
  float promoted = 0.0f;
  uint32_t acc = 0;
  for (size_t done = 0; done < n;) {
    const size_t len = library_segment(p, n, done);
    acc = library_chain(in, k0 + done, len, p.promotion_k ? 0u : acc);
    if (p.promotion_k) promoted = add_rn(promoted, f32_of(acc));
    done += len;
  }
  return p.promotion_k ? promoted : f32_of(acc);
}

// Slice s's partial: consecutive (chunk) or interleaved (blocks j with j mod S = s, an FMA chain).
MMAEMU_HD float library_partial(const LibraryLoad& in, size_t K, size_t s) {
  const LibraryParams& p = in.p;
  if (!p.interleave_block) {
    const size_t k0 = s * p.chunk;
    return k0 < K ? library_slice(in, k0, K - k0 < p.chunk ? K - k0 : p.chunk) : 0.0f;
  }
  float acc = 0.0f;
  const size_t step = static_cast<size_t>(p.interleave_block) * p.slices;
  for (size_t j0 = s * p.interleave_block; j0 < K; j0 += step)
    for (size_t k = j0; k < j0 + p.interleave_block && k < K; ++k)
      acc = fma_rn(f32_of(in.a_at(k)), f32_of(in.b_at(k)), acc);
  return acc;
}

// The slices' reduction and the epilogue of one output, its partials given by partial(s) (float): D's raw
// bits. C and D in formats c_fmt and d_fmt (p.c and p.d; a caller that knows them at compile time passes
// constants, which lets the compiler fold the conversions: the GPU's finish kernel for fp32 C and D).
// Shared by library_element (partials computed here) and the cpu backend's lanes (computed there).
inline constexpr uint8_t kBiasInPlace = 2, kBiasAfterOutputRounding = 3;  // LibraryParams::bias

// x as D's type holds it (nearest-even), back in fp32.
MMAEMU_HD float through_output_type(float x, const FmtParams& d_fmt) {
  return f32_of(convert(d_fmt, convert(fmt_params(Fmt::fp32), bits_of(x), d_fmt, true), fmt_params(Fmt::fp32), true));
}

template <class Partial>
MMAEMU_HD uint32_t library_finish(const LibraryParams& p, const Partial& partial, uint32_t c_bits, const FmtParams& c_fmt,
                                  const FmtParams& d_fmt) {
  if (p.bias == kBiasInPlace) {  // reduction scheme 1 with a bias: D's buffer holds the running sum
    float d = f32_of(convert_epilogue(c_fmt, c_bits, fmt_params(Fmt::fp32)));
    for (uint32_t step = 0; step < p.reduction_steps; ++step) d = through_output_type(add_rn(d, partial(p.reduction_first[step])), d_fmt);
    if (d != d) return canonical_nan(d_fmt);
    return convert_epilogue(fmt_params(Fmt::fp32), bits_of(d), d_fmt);
  }
  if (p.in_place_slices) {  // reduction scheme 1: the first slice through the epilogue into D, then each added
    const float cv = p.beta_zero ? 0.0f : f32_of(convert_epilogue(c_fmt, c_bits, fmt_params(Fmt::fp32)));
    float d = 0.0f;
    for (uint32_t step = 0; step < p.reduction_steps; ++step) {
      const float x = partial(p.reduction_first[step]), beta = step == 0 ? p.beta : 1.0f, y = step == 0 ? cv : d;
      d = step == 0 && p.beta_zero ? mul_rn(p.alpha, x)
          : p.beta_fma             ? fma_rn(beta, y, mul_rn(p.alpha, x))
                                   : fma_rn(p.alpha, x, mul_rn(beta, y));
      d = through_output_type(d, d_fmt);
    }
    if (d != d) return canonical_nan(d_fmt);
    return convert_epilogue(fmt_params(Fmt::fp32), bits_of(d), d_fmt);
  }
  float acc = 0.0f;
  for (uint32_t step = 0; step < p.reduction_steps; ++step) {
    const uint16_t first = p.reduction_first[step], second = p.reduction_second[step];
    float x = 0.0f;
    for (int j = 0; j < (second != kAloneInStep ? 2 : 1); ++j) {  // one call site: one inlined copy on the GPU
      float y = partial(j ? second : first);
      if (p.partials_in_output_type) y = through_output_type(y, d_fmt);  // REDUCTION_SCHEME_OUTPUT_TYPE
      x = j ? add_rn(x, y) : y;
    }
    acc = step == 0 ? x : add_rn(acc, x);
  }
  float d;
  if (p.bias == kBiasAfterOutputRounding) {
    d = add_rn(through_output_type(mul_rn(p.alpha, acc), d_fmt), f32_of(convert_epilogue(c_fmt, c_bits, fmt_params(Fmt::fp32))));
  } else if (p.beta_zero) {
    d = mul_rn(p.alpha, acc);
  } else {
    const float cv = f32_of(convert_epilogue(c_fmt, c_bits, fmt_params(Fmt::fp32)));
    d = p.beta_fma ? fma_rn(p.beta, cv, mul_rn(p.alpha, acc)) : fma_rn(p.alpha, acc, mul_rn(p.beta, cv));
  }
  if (d != d) return canonical_nan(d_fmt);
  return convert_epilogue(fmt_params(Fmt::fp32), bits_of(d), d_fmt);
}
template <class Partial>
MMAEMU_HD uint32_t library_finish(const LibraryParams& p, const Partial& partial, uint32_t c_bits) {
  return library_finish(p, partial, c_bits, p.c, p.d);
}

// Slice s's partial of one output, computed on demand.
struct SlicePartials {
  const LibraryLoad& in;
  size_t K;
  MMAEMU_HD float operator()(size_t s) const { return library_partial(in, K, s); }
};

// D[m][n]'s raw bits: a_row = A[m][0..K), b_col = B[0..K)[n] with stride b_stride, c_bits = C[m][n].
MMAEMU_HD uint32_t library_element(const LibraryParams& p, const uint32_t* a_row, const uint32_t* b_col,
                                   size_t b_stride, size_t K, uint32_t c_bits) {
  const LibraryLoad in{p, a_row, b_col, b_stride};
  return library_finish(p, SlicePartials{in, K}, c_bits);
}

}  // namespace mmaemu::kernels::arith
