// Properties of the block-scaled instructions (kind::mxf8f6f4, mxf4, mxf4nvf4):
//   scale-exchange: moving a power of two from A's ue8m0 scales to B's (the same 2^s out of every row's
//     scale of a block and into every column's) leaves D and the trace unchanged: only the product of
//     the two scales enters the arithmetic, in both the per-product and the grouped block.
//   unit-scales-equal-unscaled: with every scale 1.0, a per-product block-scaled instruction gives the
//     bits of the unscaled instruction of the same shape and types (MMA-Sim models both with one block).
#include <algorithm>

#include "harness/properties/catalogue_parts.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"
#include "harness/properties/reference_groups.hpp"

namespace mmaemu::props {
namespace {

Problem draw_scaled_problem(const ref::InstructionModel& m) {
  Problem p;
  p.model = &m;
  p.shape = draw_gemm_shape(m.instr, 2);
  p.ops = draw_family_operands(m.instr, p.shape, draw_family());
  return p;
}

// --- scale-exchange ---------------------------------------------------------------------------------
ModelClass ue8m0_only(const ref::InstructionModel& m) {
  if (m.instr.scale->format != ref::FormatId::ue8m0)
    return not_applicable_to("ue4m3", "ue4m3 scales are not powers of two: no exact exchange between A's and B's");
  return holds();
}

void exchange_case(const ref::InstructionModel& m) {
  Problem p = draw_scaled_problem(m);
  const kernels::GemmShape& s = p.shape;
  const size_t S = scales_of(p);
  Problem q = p;
  for (size_t t = 0; t < s.batch; ++t)
    for (size_t j = 0; j < S; ++j) {
      const int shift = *rc::gen::inRange(-8, 9);
      for (size_t r = 0; r < s.M; ++r) {
        uint32_t& x = q.ops.SA[(t * s.M + r) * S + j];
        if (x == 0xFF || static_cast<int>(x) + shift < 0 || static_cast<int>(x) + shift > 254)
          discard("a scale would leave ue8m0's finite range");
        x = static_cast<uint32_t>(static_cast<int>(x) + shift);
      }
      for (size_t n = 0; n < s.N; ++n) {
        uint32_t& y = q.ops.SB[(t * S + j) * s.N + n];
        if (y == 0xFF || static_cast<int>(y) - shift < 0 || static_cast<int>(y) - shift > 254)
          discard("a scale would leave ue8m0's finite range");
        y = static_cast<uint32_t>(static_cast<int>(y) - shift);
      }
    }
  if (auto d = first_difference(p, reference_outputs(p), reference_outputs(q))) {
    Counterexample c = problem_counterexample(p, *d, "D with 2^s moved from A's scales to B's (got) against D", "reference");
    add_problem(c, q, "exchanged-", "reference");
    refute(std::move(c));
  }
}

// --- unit-scales-equal-unscaled -----------------------------------------------------------------------
const ref::InstructionModel* unscaled_twin(const ref::InstructionModel& m) {
  for (const ref::InstructionModel& o : ref::instructions_of(m.arch)) {
    const ref::Instruction &a = o.instr, &b = m.instr;
    if (!a.scale && !o.lowering && a.family == b.family && a.m == b.m && a.n == b.n && a.k == b.k && a.a == b.a &&
        a.b == b.b && a.c == b.c && a.d == b.d)
      return &o;
  }
  return nullptr;
}

ModelClass per_product_with_twin(const ref::InstructionModel& m) {
  if (m.block.group_k != 0)
    return not_applicable_to("grouped", "grouped blocks (K = 64) have no unscaled instruction of their shape and types");
  if (!unscaled_twin(m)) return not_applicable_to("no-twin", "no unscaled instruction of the same shape and types");
  return holds();
}

void unit_case(const ref::InstructionModel& m) {
  Problem p = draw_scaled_problem(m);
  const uint32_t unit = ref::unit_scale_bits(m.instr.scale->format);
  std::fill(p.ops.SA.begin(), p.ops.SA.end(), unit);
  std::fill(p.ops.SB.begin(), p.ops.SB.end(), unit);
  Problem q = p;
  q.model = unscaled_twin(m);
  q.ops.SA.clear();
  q.ops.SB.clear();
  if (auto d = first_difference(p, reference_outputs(q), reference_outputs(p))) {
    Counterexample c = problem_counterexample(p, *d, "D with unit scales (got) against the unscaled " + q.model->instr.name,
                                              "reference");
    add_problem(c, q, "unscaled-", "reference");
    refute(std::move(c));
  }
}

}  // namespace

Property scale_exchange() {
  return {"scale-exchange", "arithmetic",
          "moving a power of two from A's ue8m0 scales to B's, block by block, leaves D and the trace unchanged",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "scale-exchange", ue8m0_only, exchange_case, block_scaled_models_of);
          }};
}

Property unit_scales_equal_unscaled() {
  return {"unit-scales-equal-unscaled", "arithmetic",
          "with every scale 1.0 a per-product block-scaled instruction gives the unscaled instruction's D and trace, "
          "bit for bit",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "unit-scales-equal-unscaled", per_product_with_twin, unit_case,
                               block_scaled_models_of);
          }};
}

}  // namespace mmaemu::props
