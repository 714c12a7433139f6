// backend-equals-reference: every backend of the build gives the reference's bits, D and the
// accumulator after every step, on GEMMs drawn around each instruction's tile (edges past it, K no
// multiple of the instruction's, batches) and filled from every input family.
#include "harness/properties/catalogue_parts.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"

namespace mmaemu::props {
namespace {

std::vector<GroupOutcome> check(const Scope& scope, const Budget& budget) {
  std::vector<GroupOutcome> out;
  for (const kernels::Backend* backend : scope.backends) {
    const std::string name = backend->name();
    const std::string group = "backend-equals-reference/" + name;
    // The models it runs at all here, probed at the instruction's own shape; the others are declines
    // of the whole model (tc on another architecture than the GPU's), reported as such.
    std::vector<const ref::InstructionModel*> runnable;
    DeclineTallies declines;
    for (ref::Arch profile : scope.profiles)
      for (const ref::InstructionModel* m : models_of(profile)) {
        const kernels::GemmShape probe{1, static_cast<size_t>(m->instr.m), static_cast<size_t>(m->instr.n),
                                       static_cast<size_t>(m->instr.k)};
        if (auto why = backend->declines(*m, probe, true))
          count_decline(declines, *why);
        else
          runnable.push_back(m);
      }
    if (runnable.empty()) {
      GroupOutcome g = not_applicable(group, "it declines every model of these profiles");
      g.declined[name] = declines;
      out.push_back(std::move(g));
      continue;
    }
    GroupOutcome g = run_group(group, Expect::holds, "", budget, [&] {
      Problem p;
      p.model = draw_model(runnable);
      p.shape = draw_gemm_shape(p.model->instr, 3);
      const gen::Family family = draw_family();
      p.ops = draw_family_operands(p.model->instr, p.shape, family);
      if (auto why = backend->declines(*p.model, p.shape, true)) {
        count_decline(declines, *why);
        discard(why->detail);
      }
      const Outputs want = reference_outputs(p);
      Outputs got;
      got.D.assign(want.D.size(), kernels::kPoison);
      got.trace.assign(want.trace.size(), kernels::kPoison);
      kernels::GemmProblem run{p.model, p.shape, p.ops.A.data(), p.ops.B.data(), p.ops.C.data(), got.D.data(),
                               got.trace.data()};
      const std::string what = name + " against the reference (" + std::string(gen::family_name(family)) + ")";
      try {
        backend->run(run);
      } catch (const kernels::KernelError& e) {
        Counterexample c = problem_counterexample(p, {"the run", 0, 0}, what + ", " + name + " failed: " + e.what(), name);
        refute(std::move(c));
      }
      if (auto d = first_difference(p, want, got)) {
        Counterexample c = problem_counterexample(p, *d, what, name);
        c.replay.push_back(c.replay.front().substr(0, c.replay.front().find(" --out ")) + " --out {dir}/d-reference.npy"
                           " --trace {dir}/trace-reference.npy --backend reference");
        refute(std::move(c));
      }
    });
    g.ran[name] = static_cast<size_t>(g.cases) + (g.counterexample ? 1 : 0);
    g.declined[name] = declines;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

Property backend_equals_reference() {
  return {"backend-equals-reference", "backends",
          "every backend gives the reference's D and accumulator after every step, bit for bit, on GEMMs of "
          "every profile and instruction it runs, from every input family",
          check};
}

}  // namespace mmaemu::props
