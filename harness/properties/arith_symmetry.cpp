// Symmetries of the tensor-core arithmetic, checked on the reference: permuting the products of one
// block, exchanging A and B, negating A and C, scaling A and C by a power of two.
#include <algorithm>
#include <climits>
#include <numeric>

#include "harness/properties/arith_cases.hpp"
#include "harness/properties/catalogue_parts.hpp"
#include "generators/rng.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"
#include "harness/properties/reference_groups.hpp"

namespace mmaemu::props {
namespace {

using ref::FormatId;
using ref::InstructionModel;

uint32_t sign_bit(FormatId f) { return 1u << (ref::spec(f).storage_bits - 1); }

Problem draw_problem(const InstructionModel& m, size_t max_batch, const std::vector<gen::Family>& families) {
  Problem p;
  p.model = &m;
  p.shape = draw_gemm_shape(m.instr, max_batch);
  const gen::Family family = *rc::gen::elementOf(families);
  p.ops = draw_family_operands(m.instr, p.shape, family);
  return p;
}

// Refutes when the two problems' outputs differ under `same`: the first is the case, the second the
// transformed problem whose outputs were mapped back onto the first's (`got`).
void require_equal(const std::string& what, const Problem& p, const Outputs& want, const Problem& q,
                   const std::string& q_prefix, const Outputs& got, SameBits same = nullptr) {
  if (auto d = first_difference(p, want, got, same)) {
    Counterexample c = problem_counterexample(p, *d, what, "reference");
    add_problem(c, q, q_prefix, "reference");
    refute(std::move(c));
  }
}

// --- block-permutation ----------------------------------------------------------------------------
// The span whose products the property permutes: one block of the instruction (a block longer than
// the instruction's K is cut at the instruction's end); for a lowered instruction the products that
// one period of its dealing spreads over its parts.
size_t block_span(const InstructionModel& m) {
  if (m.lowering) return static_cast<size_t>(m.lowering->parts * m.lowering->run);
  return static_cast<size_t>(std::min(m.block.block_k, m.instr.k));
}

void permuted_block_case(const InstructionModel& m) {
  const Problem p = draw_problem(m, 2, gen::all_families());
  const size_t span = block_span(m), K = p.shape.K;
  const size_t blocks = (ref::gemm_steps(m, K) * static_cast<size_t>(m.instr.k)) / span;
  const size_t start = *rc::gen::inRange<size_t>(0, blocks) * span;
  const size_t end = std::min(start + span, K);
  if (end <= start + 1) discard("the block holds fewer than two products");
  std::vector<size_t> order(end - start);
  std::iota(order.begin(), order.end(), start);
  gen::Rng rng(*rc::gen::noShrink(rc::gen::arbitrary<uint64_t>()));
  for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[static_cast<size_t>(rng.uniform_int(0, static_cast<int>(i)))]);
  if (std::is_sorted(order.begin(), order.end())) std::swap(order.front(), order.back());

  Problem q = p;
  const kernels::GemmShape& s = p.shape;
  for (size_t t = 0; t < s.batch; ++t)
    for (size_t i = 0; i < order.size(); ++i) {
      const size_t to = start + i, from = order[i];
      for (size_t r = 0; r < s.M; ++r) q.ops.A[(t * s.M + r) * K + to] = p.ops.A[(t * s.M + r) * K + from];
      for (size_t n = 0; n < s.N; ++n) q.ops.B[(t * K + to) * s.N + n] = p.ops.B[(t * K + from) * s.N + n];
    }
  require_equal("products k " + std::to_string(start) + ".." + std::to_string(end - 1) + " permuted", p,
                reference_outputs(p), q, "permuted-", reference_outputs(q));
}

ModelClass classify_permutation(const InstructionModel& m) {
  if (m.lowering)
    return exception("lowered",
                     "lowered to " + m.lowering->via + ": consecutive k go to different parts (runs of " +
                         std::to_string(m.lowering->run) + " dealt over " + std::to_string(m.lowering->parts) +
                         "), each part its own chained instruction, so a product moved across parts is rounded with other ones");
  return holds();
}

// --- operand-exchange -------------------------------------------------------------------------------
const InstructionModel* exchanged(const InstructionModel& m) {
  for (const InstructionModel& o : ref::instructions_of(m.arch))
    if (o.instr.family == m.instr.family && o.instr.m == m.instr.m && o.instr.n == m.instr.n &&
        o.instr.k == m.instr.k && o.instr.a == m.instr.b && o.instr.b == m.instr.a && o.instr.c == m.instr.c &&
        o.instr.d == m.instr.d)
      return &o;
  return nullptr;
}

void exchanged_operands_case(const InstructionModel& m) {
  const Problem p = draw_problem(m, 2, gen::all_families());
  const kernels::GemmShape& s = p.shape;
  Problem q;
  q.model = exchanged(m);
  q.shape = {s.batch, s.N, s.M, s.K};
  q.ops.A.resize(p.ops.B.size());
  q.ops.B.resize(p.ops.A.size());
  q.ops.C.resize(p.ops.C.size());
  for (size_t t = 0; t < s.batch; ++t) {
    for (size_t k = 0; k < s.K; ++k) {
      for (size_t n = 0; n < s.N; ++n) q.ops.A[(t * s.N + n) * s.K + k] = p.ops.B[(t * s.K + k) * s.N + n];
      for (size_t r = 0; r < s.M; ++r) q.ops.B[(t * s.K + k) * s.M + r] = p.ops.A[(t * s.M + r) * s.K + k];
    }
    for (size_t r = 0; r < s.M; ++r)
      for (size_t n = 0; n < s.N; ++n) q.ops.C[(t * s.N + n) * s.M + r] = p.ops.C[(t * s.M + r) * s.N + n];
  }
  const Outputs qo = reference_outputs(q);
  Outputs back;  // q's outputs transposed back onto p's [m][n]
  back.D.resize(qo.D.size());
  back.trace.resize(qo.trace.size());
  const size_t steps = steps_of(p);
  for (size_t t = 0; t < s.batch; ++t)
    for (size_t r = 0; r < s.M; ++r)
      for (size_t n = 0; n < s.N; ++n) {
        const size_t o = (t * s.M + r) * s.N + n, e = (t * s.N + n) * s.M + r;
        back.D[o] = qo.D[e];
        for (size_t st = 0; st < steps; ++st) back.trace[o * steps + st] = qo.trace[e * steps + st];
      }
  require_equal("A and B exchanged (" + q.model->instr.name + " on B^T, A^T, C^T, transposed back)", p,
                reference_outputs(p), q, "exchanged-", back);
}

ModelClass classify_exchange(const InstructionModel& m) {
  if (!exchanged(m)) return not_applicable_to("no-exchanged-instruction", "no instruction with A's and B's formats exchanged");
  return holds();
}

// --- negation -----------------------------------------------------------------------------------------
// A zero result is compared by class: an exact cancellation, and a sum that rounds to zero, come out
// as +0 under either sign (as the hardware returns them). NaN is canonical, so it compares by bits.
bool same_up_to_zero_sign(FormatId d, uint32_t want, uint32_t got) {
  const auto zero = [&](uint32_t x) { return ref::decode(d, x).cls == ref::ValueClass::zero; };
  return want == got || (zero(want) && zero(got));
}

}  // namespace

void negation_case(const InstructionModel& m) {
  const Problem p = draw_problem(m, 2, gen::all_families());
  Problem q = p;
  for (uint32_t& a : q.ops.A) a ^= sign_bit(m.instr.a);
  for (uint32_t& c : q.ops.C) c ^= sign_bit(m.instr.c);
  Outputs want = reference_outputs(p);
  const auto negate = [&](uint32_t& x) {
    if (ref::decode(m.instr.d, x).cls != ref::ValueClass::nan) x ^= sign_bit(m.instr.d);
  };
  for (uint32_t& d : want.D) negate(d);
  for (uint32_t& d : want.trace) negate(d);
  if (auto d = first_difference(p, want, reference_outputs(q), same_up_to_zero_sign)) {
    Counterexample c = problem_counterexample(p, *d, "-D(A, B, C) against D(-A, B, -C)", "reference");
    add_problem(c, q, "negated-", "reference");
    refute(std::move(c));
  }
}

namespace {

ModelClass classify_negation(const InstructionModel& m) {
  if (!m.lowering && m.block.truncation == ref::Truncation::floor)
    return exception("floor-truncation",
                     "two's-complement truncation rounds every aligned term toward -inf, so x and -x lose different amounts");
  return holds();
}

// --- power-of-two-scaling ------------------------------------------------------------------------------
// x * 2^s for a normal pattern, when the result is normal too.
std::optional<uint32_t> scaled(FormatId f, uint32_t bits, int s) {
  const ref::FormatSpec& sp = ref::spec(f);
  const ref::Decoded d = ref::decode(f, bits);
  if (d.cls == ref::ValueClass::zero) return bits;
  if (d.cls != ref::ValueClass::normal) return std::nullopt;
  const int frac_width = sp.man_bits + sp.man_shift;
  const int biased = static_cast<int>((bits >> frac_width) & ((1u << sp.exp_bits) - 1u)) + s;
  if (biased < 1 || biased > (1 << sp.exp_bits) - 2 + (sp.specials == ref::SpecialStyle::ieee ? 0 : 1)) return std::nullopt;
  const uint32_t out = (bits & ~(((1u << sp.exp_bits) - 1u) << frac_width)) | (static_cast<uint32_t>(biased) << frac_width);
  if (ref::decode(f, out).cls != ref::ValueClass::normal) return std::nullopt;  // e4m3: S.1111.111 is NaN
  return out;
}

// Whether every block of the problem stays where scaling is exact: each block's result zero or
// normal and finite, in this problem and in the one scaled by 2^s; and, in a block with zero terms,
// the largest term above the profile's fixed zero-product exponent (a zero term aligns there, and
// that exponent does not scale).
bool blocks_in_domain(const Problem& p, int s) {
  const InstructionModel& m = *p.model;
  const kernels::GemmShape& sh = p.shape;
  const size_t L = static_cast<size_t>(std::min(m.block.block_k, m.instr.k)), k = static_cast<size_t>(m.instr.k);
  const size_t padded = ref::gemm_steps(m, sh.K) * k;
  const ref::FormatSpec& acc = ref::spec(m.block.block_result);
  std::vector<uint32_t> a(padded), b(padded);
  for (size_t t = 0; t < sh.batch; ++t)
    for (size_t r = 0; r < sh.M; ++r)
      for (size_t n = 0; n < sh.N; ++n) {
        for (size_t i = 0; i < padded; ++i) {
          a[i] = i < sh.K ? p.ops.A[(t * sh.M + r) * sh.K + i] : 0u;
          b[i] = i < sh.K ? p.ops.B[(t * sh.K + i) * sh.N + n] : 0u;
        }
        uint32_t c = p.ops.C[(t * sh.M + r) * sh.N + n];
        for (size_t start = 0; start < padded; start += L) {
          int emax = INT_MIN;
          bool zero_term = false;
          const ref::Decoded dc = ref::decode(m.instr.c, c);
          if (dc.cls == ref::ValueClass::zero) zero_term = true; else emax = dc.exp;
          for (size_t i = start; i < start + L; ++i) {
            const ref::Decoded da = ref::decode(m.instr.a, a[i]), db = ref::decode(m.instr.b, b[i]);
            if (da.cls == ref::ValueClass::zero || db.cls == ref::ValueClass::zero) zero_term = true;
            else emax = std::max(emax, da.exp + db.exp);
          }
          if (zero_term && m.block.zero_product_exp != INT_MIN && emax != INT_MIN &&
              std::min(emax, emax + s) <= m.block.zero_product_exp)
            return false;
          c = ref::dot_k(m, a.data() + start, b.data() + start, c, static_cast<int>(L));
          const ref::Decoded r = ref::decode(m.block.block_result, c);
          if (r.cls == ref::ValueClass::zero) continue;
          if (r.cls != ref::ValueClass::normal) return false;
          const int biased = r.exp + acc.bias;
          if (biased + s < 1 || biased + s > (1 << acc.exp_bits) - 2) return false;
        }
      }
  return true;
}

void scaling_case(const InstructionModel& m) {
  static const std::vector<gen::Family> families = {gen::Family::realistic, gen::Family::cancellation,
                                                    gen::Family::dominant, gen::Family::small_int,
                                                    gen::Family::carry_chain};
  const Problem p = draw_problem(m, 1, families);
  const int s = *rc::gen::inRange(-8, 9);
  if (s == 0) discard("scale 2^0");
  Problem q = p;
  for (uint32_t& a : q.ops.A) {
    const auto x = scaled(m.instr.a, a, s);
    if (!x) discard("an element of A is not normal before and after scaling");
    a = *x;
  }
  for (uint32_t& c : q.ops.C) {
    const auto x = scaled(m.instr.c, c, s);
    if (!x) discard("an element of C is not normal before and after scaling");
    c = *x;
  }
  if (!blocks_in_domain(p, s)) discard("a block result leaves the normal range, or a zero term sets the alignment");
  Outputs want = reference_outputs(p);
  for (auto* list : {&want.D, &want.trace})
    for (uint32_t& d : *list) {
      const auto x = scaled(m.instr.d, d, s);
      if (!x) discard("D is not normal before and after scaling");
      d = *x;
    }
  require_equal("D(A, B, C) * 2^" + std::to_string(s) + " against D(A * 2^" + std::to_string(s) + ", B, C * 2^" +
                    std::to_string(s) + ")",
                p, want, q, "scaled-", reference_outputs(q));
}

ModelClass classify_scaling(const InstructionModel& m) {
  if (m.lowering)
    return not_applicable_to("lowered", "lowered to " + m.lowering->via +
                                            ": the parts' intermediate sums are not observable, so the domain cannot be checked");
  return holds();
}

}  // namespace

Property block_permutation() {
  return {"block-permutation", "arithmetic",
          "permuting the products inside one block (A's columns and B's rows alike) leaves D and the trace unchanged",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "block-permutation", classify_permutation, permuted_block_case);
          }};
}

Property operand_exchange() {
  return {"operand-exchange", "arithmetic",
          "D(A, B, C) is the transpose of D'(B^T, A^T, C^T), D' the instruction with A's and B's formats exchanged",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "operand-exchange", classify_exchange, exchanged_operands_case);
          }};
}

Property negation() {
  return {"negation", "arithmetic",
          "D(-A, B, -C) = -D(A, B, C), zeros compared by class (an exact or underflowing zero sum is +0 under either "
          "sign), where truncation and rounding are symmetric: not under floor truncation (no shipped profile has it)",
          [](const Scope& sc, const Budget& b) { return per_profile(sc, b, "negation", classify_negation, negation_case); }};
}

Property power_of_two_scaling() {
  return {"power-of-two-scaling", "arithmetic",
          "scaling A and C by 2^s (|s| <= 8) scales D and the trace by 2^s exactly, away from subnormals and overflow "
          "(every input, block result and output normal in both problems)",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "power-of-two-scaling", classify_scaling, scaling_case);
          }};
}

}  // namespace mmaemu::props
