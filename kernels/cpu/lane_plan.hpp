// Whether an instruction's blocks can run on vector lanes (one GEMM output per lane, 32-bit integer
// lanes), and the constants the lane kernels read. Decided here, once, for every ISA's kernels.
//
// Why 32-bit lanes are exact for these instructions (the 64-bit argument of arith/emu_dot.hpp, narrowed):
//   A and B have at most 11 significant bits (fp16, bf16, tf32, FP8, FP6, FP4), so a product's
//   significand is < 2^(ma+mb+2) and, pre-shifted left by F - (ma+mb) (>= 0), < 2^(F+2): the aligned term
//   is that shifted right by emax - e, a 32-bit shift. The addend c (fp32 or fp16) aligns to < 2^(F+1).
//   Positive and negative terms are summed apart, each sum <= L * (largest product term + 1) + 2^(F+1)
//   (floor truncation adds at most 1 a term), which the plan requires to be < 2^32; |sum| = max - min of
//   the two is then a 32-bit magnitude, rounded once to the block's result format in 32-bit lanes.
// Hopper's fp16/bf16/tf32 blocks (L 16 or 8, F 25), FP8 blocks (L 32, F 13; and sm_120's L 32, F 25:
// 32 x 225 x 2^19 < 2^32) qualify; lowered and block-scaled instructions, fp64, and blocks whose sums
// need more bits run the scalar arithmetic.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/arith/op_params.hpp"
#include "mmaemu/reference/decline.hpp"

namespace mmaemu::kernels::cpu {

// Exponent given to zero operands: far below every real exponent, so that a zero product never sets
// the alignment exponent, and a block whose terms are all zero is recognisable (emax < kZeroExp / 2).
inline constexpr int32_t kZeroExp = -(1 << 24);

// A number format as the lanes decode and round it: IEEE-style (Inf and NaN at the top exponent).
struct LaneFormat {
  int man_bits = 0, exp_bits = 0, bias = 0;
  int man_shift = 0;     // position of the fraction's last bit in the pattern (e8m13: 10)
  int storage_bits = 0;  // the pattern's width (its sign bit is the top one)
};

struct LanePlan {
  int k = 0;               // the instruction's K: one GEMM step
  int L = 0;               // block length (the step's last block may be shorter)
  int F = 0;               // fraction bits kept below a block's alignment exponent
  int pre_shift = 0;       // F - (ma + mb): applied to B's significands when decoded
  bool floor_truncation = false;
  bool has_zero_product_exp = false;
  int zero_product_exp = 0;
  LaneFormat acc;          // C, D and the chain between blocks (fp32 or fp16 patterns)
  LaneFormat result;       // the format a block rounds to (fp32, fp16, e8m13)
  bool round_nearest = false;
  bool rz_overflow_to_inf = true;
};

// Empty when the instruction's blocks run on lanes; otherwise why not (the scalar arithmetic runs it).
Declined lane_plan_declines(const arith::OpParams& p);

// The plan of `p`; lane_plan_declines(p) must be empty.
LanePlan lane_plan(const arith::OpParams& p);

}  // namespace mmaemu::kernels::cpu
