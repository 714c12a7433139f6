#include "kernels/cpu/lane_plan.hpp"

#include <stdexcept>

namespace mmaemu::kernels::cpu {
namespace {

using arith::Fmt;
using arith::FmtParams;

bool ieee_pattern(const FmtParams& f) { return f.specials == arith::Specials::ieee; }

LaneFormat lane_format(const FmtParams& f) {
  return {f.man_bits, f.exp_bits, f.bias, f.man_shift, f.storage_bits};
}

}  // namespace

Declined lane_plan_declines(const arith::OpParams& p) {
  if (p.lowered) return decline(DeclineCode::lowered_instruction, "lowered instruction (its parts and IEEE addition run scalar)");
  const arith::InstrParams& in = p.instr;
  if (in.scale.present) return decline(DeclineCode::block_scaled, "block-scaled instruction");
  if (in.a.man_bits > 10 || in.b.man_bits > 10) return decline(DeclineCode::format_not_implemented, "operands wider than 11 significant bits");
  const arith::BlockParams& bp = in.block;
  if (bp.L < 1 || in.k < 1) return decline(DeclineCode::incomplete_model, "empty block model");
  if (bp.F < in.a.man_bits + in.b.man_bits) return decline(DeclineCode::other_path, "F below the products' fraction bits");
  if (bp.F > 29) return decline(DeclineCode::block_too_wide, "block sums wider than 32 bits");
  // The largest product term (both significands all ones, at emax) and the largest addend term.
  const uint64_t product = ((uint64_t{2} << in.a.man_bits) - 1) * ((uint64_t{2} << in.b.man_bits) - 1)
                           << (bp.F - in.a.man_bits - in.b.man_bits);
  if (static_cast<uint64_t>(bp.L) * (product + 1) + (uint64_t{1} << (bp.F + 1)) + 1 >= (uint64_t{1} << 32))
    return decline(DeclineCode::block_too_wide, "block sums wider than 32 bits");
  // The chain stays in one pattern: C and D alike, and the block's result read back as that format.
  if (in.c.id != in.d.id) return decline(DeclineCode::mixed_accumulator, "C and D in different formats");
  if (in.d.id != Fmt::fp32 && in.d.id != Fmt::fp16) return decline(DeclineCode::format_not_implemented, "D is neither fp32 nor fp16");
  const bool same = bp.result.id == in.d.id || (bp.result.id == Fmt::e8m13 && in.d.id == Fmt::fp32);
  if (!same) return decline(DeclineCode::format_not_implemented, "block result in another format than D");
  if (!ieee_pattern(bp.result) || !ieee_pattern(in.d)) return decline(DeclineCode::format_not_implemented, "result format without Inf");
  return std::nullopt;
}

LanePlan lane_plan(const arith::OpParams& p) {
  if (auto why = lane_plan_declines(p)) throw std::invalid_argument("lane plan: " + why->detail);
  const arith::InstrParams& in = p.instr;
  const arith::BlockParams& bp = in.block;
  LanePlan plan;
  plan.k = in.k;
  plan.L = bp.L;
  plan.F = bp.F;
  plan.pre_shift = bp.F - (in.a.man_bits + in.b.man_bits);
  plan.floor_truncation = bp.floor_truncation;
  plan.has_zero_product_exp = bp.has_zero_product_exp;
  plan.zero_product_exp = bp.zero_product_exp;
  plan.acc = lane_format(in.d);
  plan.result = lane_format(bp.result);
  plan.round_nearest = bp.round_nearest;
  plan.rz_overflow_to_inf = bp.rz_overflow_to_inf;
  return plan;
}

}  // namespace mmaemu::kernels::cpu
