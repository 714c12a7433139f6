#include "kernels/params_from_profile.hpp"

#include <stdexcept>
#include <utility>

#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/formats.hpp"

namespace mmaemu::kernels {
namespace {

using arith::Fmt;

std::optional<Fmt> try_kernel_format(ref::FormatId f) {
  switch (f) {
    case ref::FormatId::fp32: return Fmt::fp32;
    case ref::FormatId::tf32: return Fmt::tf32;
    case ref::FormatId::fp16: return Fmt::fp16;
    case ref::FormatId::bf16: return Fmt::bf16;
    case ref::FormatId::e4m3: return Fmt::e4m3;
    case ref::FormatId::e5m2: return Fmt::e5m2;
    case ref::FormatId::e8m13: return Fmt::e8m13;
    case ref::FormatId::e2m1: return Fmt::e2m1;
    case ref::FormatId::e3m2: return Fmt::e3m2;
    case ref::FormatId::e2m3: return Fmt::e2m3;
    default: return std::nullopt;
  }
}

Decline format_declines(ref::FormatId f) {
  return decline(DeclineCode::format_not_implemented, "format " + std::string(ref::format_name(f)) + " is not implemented by the kernels");
}

Declined block_declines(const ref::InstructionModel& m) {
  const ref::Instruction& in = m.instr;
  for (ref::FormatId f : {in.a, in.b, in.c, in.d, m.block.block_result})
    if (!try_kernel_format(f)) return format_declines(f);
  const ref::BlockModel& bm = m.block;
  if (bm.block_k < 1 || bm.frac_bits < 0) return decline(DeclineCode::incomplete_model, "block model of " + in.name + " is empty");
  if (arith::block_sum_bits(bm.block_k, bm.frac_bits) > 62)
    return decline(DeclineCode::block_too_wide, "block of L=" + std::to_string(bm.block_k) + ", F=" +
                                                     std::to_string(bm.frac_bits) + " needs sums wider than the kernels' 64 bits");
  return std::nullopt;
}

arith::FmtParams fmt(ref::FormatId f) { return arith::fmt_params(kernel_format(f)); }

arith::InstrParams instr_params(const ref::InstructionModel& m) {
  arith::InstrParams p;
  p.a = fmt(m.instr.a);
  p.b = fmt(m.instr.b);
  p.c = fmt(m.instr.c);
  p.d = fmt(m.instr.d);
  p.k = m.instr.k;
  const ref::BlockModel& bm = m.block;
  p.block.L = bm.block_k;
  p.block.F = bm.frac_bits;
  p.block.floor_truncation = bm.truncation == ref::Truncation::floor;
  p.block.has_zero_product_exp = bm.zero_product_exp != INT_MIN;
  p.block.zero_product_exp = p.block.has_zero_product_exp ? bm.zero_product_exp : 0;
  p.block.result = fmt(bm.block_result);
  p.block.round_nearest = bm.rounding == ref::Rounding::nearest_even;
  p.block.rz_overflow_to_inf = bm.rz_overflow_to_inf;
  p.block.tf32_input_nearest = bm.tf32_input == ref::Rounding::nearest_even;
  p.block.zero_result_positive = bm.zero_result_positive;
  if (m.instr.scale) {
    p.scale.present = true;
    p.scale.ue4m3 = m.instr.scale->format == ref::FormatId::ue4m3;
    p.scale.block = m.instr.scale->block;
    p.scale.group = bm.group_k;
  }
  return p;
}

}  // namespace

arith::Fmt kernel_format(ref::FormatId f) {
  if (auto k = try_kernel_format(f)) return *k;
  throw std::invalid_argument("format " + std::string(ref::format_name(f)) + " is not implemented by the kernels");
}

// Block-scaled instructions: the scale format, and the 64-bit bounds of scaled_block (emu_dot.hpp).
Declined scale_declines(const ref::InstructionModel& m) {
  const ref::BlockScale& sc = *m.instr.scale;
  if (sc.format != ref::FormatId::ue8m0 && sc.format != ref::FormatId::ue4m3)
    return decline(DeclineCode::format_not_implemented,
                   "scale format " + std::string(ref::format_name(sc.format)) + " is not implemented by the kernels");
  const ref::BlockModel& bm = m.block;
  const int scale_sig_bits = 2 * (ref::spec(sc.format).man_bits + 1);
  if (bm.group_k == 0) {  // a product times two scales is < 2^(F + 2 + scale_sig_bits) once aligned
    if (arith::block_sum_bits(bm.block_k, bm.frac_bits + scale_sig_bits) > 62)
      return decline(DeclineCode::block_too_wide,
                     "scaled block of L=" + std::to_string(bm.block_k) + " needs sums wider than the kernels' 64 bits");
    return std::nullopt;
  }
  // Grouped: a group's integer sum (units of the smallest product) and its terms once aligned.
  const auto span = [](ref::FormatId f) {  // exponent range and significand bits of a format's products
    const ref::FormatSpec& s = ref::spec(f);
    const int emax = (1 << s.exp_bits) - 1 - s.bias;
    return std::pair{emax - s.emin(), s.man_bits + 1};
  };
  const auto [ra, sa] = span(m.instr.a);
  const auto [rb, sb] = span(m.instr.b);
  int log2_g = 0;
  while ((1 << log2_g) < bm.group_k) ++log2_g;
  const int groups = bm.block_k / bm.group_k;
  if (groups > 8 || bm.block_k % bm.group_k != 0)
    return decline(DeclineCode::block_too_wide, "grouped block of " + m.instr.name + " has too many groups");
  if (ra + rb + sa + sb + log2_g + scale_sig_bits > 62 ||
      arith::block_sum_bits(groups, bm.frac_bits + log2_g + ra + rb + sa + sb) > 62)
    return decline(DeclineCode::block_too_wide, "grouped block of " + m.instr.name + " needs sums wider than the kernels' 64 bits");
  return std::nullopt;
}

Declined arith_declines(const ref::InstructionModel& m) {
  // Not a block: kernels/arith/fma_chain.hpp, which simt and host run; the others have no code for it.
  if (m.fma_chain) return decline(DeclineCode::fp64_fma_chain, "fp64 mma (an IEEE fma chain, no block) is run by simt and host");
  if (m.instr.scale) {
    if (auto why = scale_declines(m)) return why;
    return block_declines(m);
  }
  if (!m.lowering) return block_declines(m);
  const ref::Lowering& low = *m.lowering;
  if (!low.via_model) return decline(DeclineCode::incomplete_model, m.instr.name + " is lowered to " + low.via + ", which has no model");
  if (low.via_model->lowering)
    return decline(DeclineCode::incomplete_model, m.instr.name + " is lowered to an instruction that is itself lowered");
  if (low.parts < 1 || low.run < 1) return decline(DeclineCode::incomplete_model, "lowering of " + m.instr.name + " has no parts");
  for (ref::FormatId f : {m.instr.a, m.instr.b, m.instr.c, m.instr.d})
    if (!try_kernel_format(f)) return format_declines(f);
  return block_declines(*low.via_model);
}

arith::OpParams params_from_profile(const ref::InstructionModel& m) {
  if (auto why = arith_declines(m)) throw std::invalid_argument(why->detail);
  arith::OpParams p;
  if (!m.lowering) {
    p.instr = instr_params(m);
    return p;
  }
  // The emulated instruction's own formats and K; its block is that of the via instruction.
  p.instr.a = fmt(m.instr.a);
  p.instr.b = fmt(m.instr.b);
  p.instr.c = fmt(m.instr.c);
  p.instr.d = fmt(m.instr.d);
  p.instr.k = m.instr.k;
  p.lowered = true;
  p.parts = m.lowering->parts;
  p.run = m.lowering->run;
  p.via = instr_params(*m.lowering->via_model);
  return p;
}

}  // namespace mmaemu::kernels
