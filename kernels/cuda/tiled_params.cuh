// Compile-time OpParams for the instructions tiled and tiled-fp64 are timed on (Hopper's 16-bit, tf32 and FP8
// blocks), so that their kernels fold the format and block constants. The host picks a FixedParams kernel only
// when its params() equal params_from_profile() field by field; any other profile runs the generic
// kernel. A wrong constant here can therefore cost speed, never bits.
#pragma once
#include <cstdint>

#include "kernels/arith/formats.hpp"
#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::tiled {

struct GenericParams {
  static constexpr bool kFixed = false;
  static constexpr bool kDecoded = false;
};

// A block with a fixed zero-product exponent, truncation toward zero, RZ overflow to Inf, tf32 read by
// dropping bits: every Hopper block.
__host__ __device__ constexpr arith::OpParams hopper_block(arith::Fmt ab_a, arith::Fmt ab_b, arith::Fmt cd, int k, int L, int F,
                                       int zero_exp, arith::Fmt result, bool nearest) {
  arith::OpParams p{};
  p.instr.a = arith::fmt_params(ab_a);
  p.instr.b = arith::fmt_params(ab_b);
  p.instr.c = arith::fmt_params(cd);
  p.instr.d = arith::fmt_params(cd);
  p.instr.k = k;
  p.instr.block.L = L;
  p.instr.block.F = F;
  p.instr.block.floor_truncation = false;
  p.instr.block.has_zero_product_exp = true;
  p.instr.block.zero_product_exp = zero_exp;
  p.instr.block.result = arith::fmt_params(result);
  p.instr.block.round_nearest = nearest;
  p.instr.block.rz_overflow_to_inf = true;
  p.instr.block.tf32_input_nearest = false;
  return p;
}

template <arith::Fmt A, arith::Fmt B, arith::Fmt CD, int K, int L, int F, int Z, arith::Fmt R, bool N>
struct FixedParams {
  static constexpr bool kFixed = true;
  // Every FixedParams is a block instruction (not lowered) with significands of at most 12 bits, as
  // the decoded path (tiled_decoded.cuh) needs.
  static constexpr bool kDecoded = true;
  __host__ __device__ static constexpr arith::OpParams params() { return hopper_block(A, B, CD, K, L, F, Z, R, N); }
};

using Fmt = arith::Fmt;
using Sm90Bf16F32 = FixedParams<Fmt::bf16, Fmt::bf16, Fmt::fp32, 16, 16, 25, -133, Fmt::fp32, false>;
using Sm90F16F32 = FixedParams<Fmt::fp16, Fmt::fp16, Fmt::fp32, 16, 16, 25, -133, Fmt::fp32, false>;
using Sm90F16F16 = FixedParams<Fmt::fp16, Fmt::fp16, Fmt::fp16, 16, 16, 25, -21, Fmt::fp16, true>;
using Sm90Tf32F32 = FixedParams<Fmt::tf32, Fmt::tf32, Fmt::fp32, 8, 8, 25, -133, Fmt::fp32, false>;
using Sm90E4m3F32 = FixedParams<Fmt::e4m3, Fmt::e4m3, Fmt::fp32, 32, 32, 13, -133, Fmt::e8m13, false>;
using Sm90E5m2F32 = FixedParams<Fmt::e5m2, Fmt::e5m2, Fmt::fp32, 32, 32, 13, -133, Fmt::e8m13, false>;

// Field-by-field equality (the structs have padding, so no memcmp).
inline bool same_fmt(const arith::FmtParams& x, const arith::FmtParams& y) {
  return x.id == y.id && x.storage_bits == y.storage_bits && x.exp_bits == y.exp_bits && x.man_bits == y.man_bits &&
         x.man_shift == y.man_shift && x.specials == y.specials && x.bias == y.bias;
}
inline bool same_block(const arith::BlockParams& x, const arith::BlockParams& y) {
  return x.L == y.L && x.F == y.F && x.floor_truncation == y.floor_truncation &&
         x.has_zero_product_exp == y.has_zero_product_exp && x.zero_product_exp == y.zero_product_exp &&
         same_fmt(x.result, y.result) && x.round_nearest == y.round_nearest &&
         x.rz_overflow_to_inf == y.rz_overflow_to_inf && x.tf32_input_nearest == y.tf32_input_nearest;
}
inline bool same_instr(const arith::InstrParams& x, const arith::InstrParams& y) {
  return same_fmt(x.a, y.a) && same_fmt(x.b, y.b) && same_fmt(x.c, y.c) && same_fmt(x.d, y.d) && x.k == y.k &&
         same_block(x.block, y.block);
}
inline bool same_params(const arith::OpParams& x, const arith::OpParams& y) {
  return same_instr(x.instr, y.instr) && x.lowered == y.lowered &&
         (!x.lowered || (x.parts == y.parts && x.run == y.run && same_instr(x.via, y.via)));
}

// A type carried as a value, for the generic lambdas with_spec calls.
template <class T>
struct Tag {
  using type = T;
};

// The one list of FixedParams kernels: calls run(Tag<Operand>, Tag<Acc>, Spec) with the FixedParams
// equal to `params` (and the storage types of its formats), or with GenericParams and the storage
// types of op_bits (8, 16, else 32) and acc_bits (16, else 32). tiled and tiled-fp64 pick their kernels here.
template <class Run>
double with_spec(const arith::OpParams& params, int op_bits, int acc_bits, Run&& run) {
  using u8 = Tag<uint8_t>;
  using u16 = Tag<uint16_t>;
  using u32 = Tag<uint32_t>;
  if (same_params(params, Sm90Bf16F32::params())) return run(u16{}, u32{}, Sm90Bf16F32{});
  if (same_params(params, Sm90F16F32::params())) return run(u16{}, u32{}, Sm90F16F32{});
  if (same_params(params, Sm90F16F16::params())) return run(u16{}, u16{}, Sm90F16F16{});
  if (same_params(params, Sm90Tf32F32::params())) return run(u32{}, u32{}, Sm90Tf32F32{});
  if (same_params(params, Sm90E4m3F32::params())) return run(u8{}, u32{}, Sm90E4m3F32{});
  if (same_params(params, Sm90E5m2F32::params())) return run(u8{}, u32{}, Sm90E5m2F32{});
  const auto generic = [&](auto op) {
    return acc_bits == 16 ? run(op, u16{}, GenericParams{}) : run(op, u32{}, GenericParams{});
  };
  switch (op_bits) {
    case 8: return generic(u8{});
    case 16: return generic(u16{});
    default: return generic(u32{});
  }
}

}  // namespace mmaemu::kernels::tiled
