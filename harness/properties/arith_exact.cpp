// Where the tensor-core arithmetic must be exact: small integers give the exact result on every
// profile, and one block whose terms lose no bits to alignment gives its exact sum rounded once, as
// the block's rounding says. The expected values come from doubles and the generators' encoder
// (generators/format_bits), not from the reference's own rounding.
#include <bit>
#include <climits>
#include <cmath>

#include "harness/properties/catalogue_parts.hpp"
#include "generators/format_bits.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"
#include "harness/properties/reference_groups.hpp"

namespace mmaemu::props {
namespace {

using ref::FormatId;
using ref::InstructionModel;

void small_integer_case(const InstructionModel& m) {
  const InstructionModel& unit = m.lowering ? *m.lowering->via_model : m;
  Problem p;
  p.model = &m;
  p.shape = draw_gemm_shape(m.instr, 2);
  const kernels::GemmShape& s = p.shape;
  const long K = static_cast<long>(ref::gemm_steps(m, s.K)) * m.instr.k;
  // Every partial sum must be exact in the accumulator, in C and D, and keep its units digit through
  // the alignment (F fraction bits below the largest term's exponent).
  const long total = std::min({exact_integer_limit(unit.block.block_result), exact_integer_limit(m.instr.d),
                               exact_integer_limit(m.instr.c), 1L << std::min(unit.block.frac_bits, 40)});
  const long c_limit = total / 4, product_limit = (total - c_limit) / K;
  const long operand_limit = std::min({exact_integer_limit(m.instr.a), exact_integer_limit(m.instr.b),
                                       static_cast<long>(std::sqrt(static_cast<double>(product_limit)))});
  if (operand_limit < 1) discard("K too long for exact small integers in this format");
  const auto a = *rc::gen::container<std::vector<long>>(kernels::a_count(s), small_integer(operand_limit));
  const auto b = *rc::gen::container<std::vector<long>>(kernels::b_count(s), small_integer(operand_limit));
  const auto c = *rc::gen::container<std::vector<long>>(kernels::c_count(s), small_integer(c_limit));
  p.ops = {encode_integers(m.instr.a, a), encode_integers(m.instr.b, b), encode_integers(m.instr.c, c)};

  const size_t steps = steps_of(p), k = static_cast<size_t>(m.instr.k);
  const gen::FormatBits fd(m.instr.d);
  Outputs want;
  for (size_t t = 0; t < s.batch; ++t)
    for (size_t r = 0; r < s.M; ++r)
      for (size_t n = 0; n < s.N; ++n) {
        long acc = c[(t * s.M + r) * s.N + n];
        for (size_t st = 0; st < steps; ++st) {
          for (size_t i = st * k; i < std::min((st + 1) * k, s.K); ++i)
            acc += a[(t * s.M + r) * s.K + i] * b[(t * s.K + i) * s.N + n];
          want.trace.push_back(*fd.encode_exact(static_cast<double>(acc)));
        }
        want.D.push_back(want.trace.back());
      }
  if (auto d = first_difference(p, want, reference_outputs(p))) refute(problem_counterexample(p, *d, "the exact integer sum", "reference"));
}

// --- no-alignment-loss -------------------------------------------------------------------------------
// Operands whose significands keep only their top `keep` fraction bits, exponents in a narrow band, a
// few zeros: drawn so that every term usually fits F bits below the largest one; the case is checked
// exactly and discarded when a term would still lose a bit.
uint32_t draw_operand(FormatId f, int base_exp, int spread, int keep) {
  const gen::FormatBits fb(f);
  if (*rc::gen::inRange(0, 8) == 0) return fb.zero(*rc::gen::arbitrary<bool>());
  const int e = base_exp + *rc::gen::inRange(0, spread + 1);
  const int drop = fb.man_bits() - std::min(keep, fb.man_bits());
  const uint32_t frac = (*rc::gen::inRange<uint32_t>(0, 1u << (fb.man_bits() - drop))) << drop;
  return fb.normal(*rc::gen::arbitrary<bool>(), e, frac);
}

void no_alignment_loss_case(const InstructionModel& m) {
  const ref::BlockModel& bm = m.block;
  const int F = bm.frac_bits;
  const int L = std::min(bm.block_k, m.instr.k);
  const int n = *rc::gen::inRange(1, L + 1);
  const int e0 = *rc::gen::inRange(-3, 4);
  const ref::FormatSpec &sa = ref::spec(m.instr.a), &sb = ref::spec(m.instr.b), &sc = ref::spec(m.instr.c);
  const int keep_a = std::min(sa.man_bits, (F - 5) / 2), keep_b = std::min(sb.man_bits, F - 5 - keep_a);
  std::vector<uint32_t> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    a[static_cast<size_t>(i)] = draw_operand(m.instr.a, e0, 1, keep_a);
    b[static_cast<size_t>(i)] = draw_operand(m.instr.b, e0, 1, keep_b);
  }
  const uint32_t c = draw_operand(m.instr.c, 2 * e0, 2, std::min(sc.man_bits, F - 6));

  // The model's alignment exponent, and the exact sum (a double holds it: every term lies within
  // F + 3 bits of it, and there are at most 64 of them).
  int emax = INT_MIN;
  bool all_zero = true, all_neg_zero = true;
  struct Term { bool neg; uint64_t sig; int lsb; };
  std::vector<Term> terms;
  const auto zero_term = [&](bool neg) {
    if (bm.zero_product_exp != INT_MIN) emax = std::max(emax, bm.zero_product_exp);
    all_neg_zero &= neg;
  };
  for (int i = 0; i < n; ++i) {
    const ref::Decoded da = ref::decode(m.instr.a, a[static_cast<size_t>(i)]), db = ref::decode(m.instr.b, b[static_cast<size_t>(i)]);
    if (da.cls == ref::ValueClass::zero || db.cls == ref::ValueClass::zero) { zero_term(da.neg != db.neg); continue; }
    all_zero = false;
    emax = std::max(emax, da.exp + db.exp);
    terms.push_back({da.neg != db.neg, uint64_t{da.sig} * db.sig, da.exp + db.exp - sa.man_bits - sb.man_bits});
  }
  const ref::Decoded dc = ref::decode(m.instr.c, c);
  if (dc.cls == ref::ValueClass::zero) {
    zero_term(dc.neg);
  } else {
    all_zero = false;
    emax = std::max(emax, static_cast<int>(dc.exp));
    terms.push_back({dc.neg, dc.sig, dc.exp - sc.man_bits});
  }
  double sum = 0;
  for (const Term& t : terms) {
    const int low = t.lsb + std::countr_zero(t.sig);
    if (low < emax - F + 1) discard("a term would lose a bit to the alignment");
    sum += (t.neg ? -1.0 : 1.0) * std::ldexp(static_cast<double>(t.sig), t.lsb);
  }

  const gen::FormatBits acc(bm.block_result);
  uint32_t want;
  if (all_zero) {
    want = acc.zero(all_neg_zero && !bm.zero_result_positive);  // Hopper's zero results are +0
  } else if (sum == 0) {
    want = acc.zero(false);
  } else {
    want = acc.encode_nearest(sum);
    if (bm.rounding == ref::Rounding::toward_zero && std::fabs(acc.to_double(want)) > std::fabs(sum)) want -= acc.ulp_bit();
  }
  const uint32_t got = ref::dot_k(m, a.data(), b.data(), c, n);
  if (got != want) {
    Problem p;
    p.model = &m;
    p.shape = {1, 1, 1, static_cast<size_t>(n)};
    p.ops = {a, b, {c}};
    Counterexample ce = problem_counterexample(p, {"D", want, got},
                                               "one block whose terms lose no bits: its exact sum rounded once", "reference");
    refute(std::move(ce));
  }
}

ModelClass classify_alignment(const InstructionModel& m) {
  if (m.lowering)
    return not_applicable_to("lowered", "lowered to " + m.lowering->via + ", which this property covers: no block of its own");
  const bool same_format = m.block.block_result == m.instr.d ||
                           (m.block.block_result == FormatId::e8m13 && m.instr.d == FormatId::fp32);
  if (!same_format) return not_applicable_to("converted", "the block's result is converted to D's format");
  return holds();
}

}  // namespace

Property small_integers_exact() {
  return {"small-integers-exact", "arithmetic",
          "small integers (every partial sum exact in the accumulator, C and D) give the exact result and trace on "
          "every instruction, lowered ones included",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "small-integers-exact", [](const InstructionModel&) { return holds(); },
                               small_integer_case);
          }};
}

Property no_alignment_loss() {
  return {"no-alignment-loss", "arithmetic",
          "one block whose products and C lose no bits to the alignment gives their exact sum rounded once (the "
          "block's rounding, to its result format)",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "no-alignment-loss", classify_alignment, no_alignment_loss_case);
          }};
}

}  // namespace mmaemu::props
