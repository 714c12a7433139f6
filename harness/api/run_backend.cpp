#include "harness/api/run_backend.hpp"

#include "harness/core/errors.hpp"

namespace mmaemu::api {

namespace {
// "tc: target sm80 differs from this GPU ... (foreign-target)": the text for people, the code beside it.
std::string said(const Decline& d) { return d.detail + " (" + std::string(d.code_name()) + ")"; }
}  // namespace

BackendRun run_on_backend(const std::string& name_or_auto, const kernels::GemmProblem& problem) {
  const kernels::LadderChoice choice =
      kernels::choose_backend(name_or_auto, *problem.model, problem.shape, problem.trace != nullptr);
  if (!choice.chosen) {
    std::string declined;
    for (const auto& [name, why] : choice.declined) declined += "\n  " + name + ": " + said(why);
    if (name_or_auto == "auto") throw InputError("--backend", "every backend declined " + problem.model->instr.name + ":" + declined);
    if (!kernels::find_backend(name_or_auto))
      throw InputError("--backend", "'" + name_or_auto + "': " + choice.declined.front().second.detail);
    throw InputError("--backend", "backend " + choice.declined.front().first + " cannot run " + problem.model->instr.name +
                                      " on " + std::string(ref::arch_name(problem.model->arch)) + ": " +
                                      said(choice.declined.front().second));
  }
  BackendRun run;
  run.info = choice.chosen->run(problem);
  run.automatic = name_or_auto == "auto";
  run.declined = choice.declined;
  return run;
}

std::string describe_run(const BackendRun& run) {
  std::string s = "mmaemu: backend " + run.info.backend + " ran" + (run.automatic ? " (auto)" : "") + "\n";
  if (!run.declined.empty()) {
    s += "mmaemu: declined before it:";
    for (const auto& [name, why] : run.declined) s += "\n  " + name + ": " + said(why);
    s += "\n";
  }
  return s;
}

}  // namespace mmaemu::api
