// gemm-equals-steps: a GEMM along K is its instruction applied step by step on instruction-shaped
// tiles (M, N and K padded with zeros), each step's D the next step's C (read in D's format:
// ref::chained_form), the trace the accumulator after every step. Checks the GEMM loop's padding, indexing and trace layout against ref::mma.
#include <algorithm>

#include "harness/properties/catalogue_parts.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"
#include "harness/properties/reference_groups.hpp"

namespace mmaemu::props {
namespace {

Outputs by_instruction_steps(const Problem& p) {
  const ref::InstructionModel& m = *p.model;
  const kernels::GemmShape& s = p.shape;
  const size_t tm = static_cast<size_t>(m.instr.m), tn = static_cast<size_t>(m.instr.n),
               tk = static_cast<size_t>(m.instr.k);
  const size_t steps = steps_of(p);
  Outputs o;
  o.D.assign(kernels::c_count(s), 0);
  o.trace.assign(kernels::c_count(s) * steps, 0);
  std::vector<uint32_t> a(tm * tk), b(tk * tn), c(tm * tn), d(tm * tn);
  for (size_t t = 0; t < s.batch; ++t)
    for (size_t i0 = 0; i0 < s.M; i0 += tm)
      for (size_t j0 = 0; j0 < s.N; j0 += tn) {
        for (size_t i = 0; i < tm; ++i)
          for (size_t j = 0; j < tn; ++j)
            c[i * tn + j] = i0 + i < s.M && j0 + j < s.N ? p.ops.C[(t * s.M + i0 + i) * s.N + j0 + j] : 0u;
        for (size_t st = 0; st < steps; ++st) {
          for (size_t i = 0; i < tm; ++i)
            for (size_t k = 0; k < tk; ++k) {
              const size_t kk = st * tk + k;
              a[i * tk + k] = i0 + i < s.M && kk < s.K ? p.ops.A[(t * s.M + i0 + i) * s.K + kk] : 0u;
            }
          for (size_t k = 0; k < tk; ++k)
            for (size_t j = 0; j < tn; ++j) {
              const size_t kk = st * tk + k;
              b[k * tn + j] = j0 + j < s.N && kk < s.K ? p.ops.B[(t * s.K + kk) * s.N + j0 + j] : 0u;
            }
          ref::mma(st == 0 ? m : ref::chained_form(m), 1, a.data(), b.data(), c.data(), d.data());
          c = d;
          for (size_t i = 0; i < tm && i0 + i < s.M; ++i)
            for (size_t j = 0; j < tn && j0 + j < s.N; ++j)
              o.trace[((t * s.M + i0 + i) * s.N + j0 + j) * steps + st] = d[i * tn + j];
        }
        for (size_t i = 0; i < tm && i0 + i < s.M; ++i)
          for (size_t j = 0; j < tn && j0 + j < s.N; ++j) o.D[(t * s.M + i0 + i) * s.N + j0 + j] = c[i * tn + j];
      }
  return o;
}

void steps_case(const ref::InstructionModel& m) {
  Problem p;
  p.model = &m;
  p.shape = draw_gemm_shape(m.instr, 2);
  p.ops = draw_family_operands(m.instr, p.shape, draw_family());
  if (auto d = first_difference(p, by_instruction_steps(p), reference_outputs(p)))
    refute(problem_counterexample(p, *d, "ref::gemm against ref::mma step by step (expected)", "reference"));
}

}  // namespace

Property gemm_equals_steps() {
  return {"gemm-equals-steps", "arithmetic",
          "a GEMM along K (D and trace) equals its instruction applied step by step on zero-padded instruction tiles, "
          "each step's D the next step's C",
          [](const Scope& sc, const Budget& b) {
            return per_profile(sc, b, "gemm-equals-steps", [](const ref::InstructionModel&) { return holds(); },
                               steps_case);
          }};
}

}  // namespace mmaemu::props
