#include "harness/cli/run_backend.hpp"

#include <iostream>

#include "harness/core/errors.hpp"

namespace mmaemu::cli {

kernels::RunInfo run_on_backend(const std::string& name_or_auto, const kernels::GemmProblem& problem) {
  const kernels::LadderChoice choice =
      kernels::choose_backend(name_or_auto, *problem.model, problem.shape, problem.trace != nullptr);
  std::string declined;
  for (const auto& [name, why] : choice.declined) declined += "\n  " + name + ": " + why;
  if (!choice.chosen) {
    if (name_or_auto == "auto") throw InputError("--backend", "every backend declined " + problem.model->instr.name + ":" + declined);
    if (!kernels::find_backend(name_or_auto))
      throw InputError("--backend", "'" + name_or_auto + "': " + choice.declined.front().second);
    throw InputError("--backend", "backend " + choice.declined.front().first + " cannot run " + problem.model->instr.name +
                                      " on " + std::string(ref::arch_name(problem.model->arch)) + ": " +
                                      choice.declined.front().second);
  }
  const kernels::RunInfo info = choice.chosen->run(problem);
  std::cerr << "mmaemu: backend " << info.backend << " ran";
  if (name_or_auto == "auto") std::cerr << " (auto)";
  std::cerr << "\n";
  if (!choice.declined.empty()) std::cerr << "mmaemu: declined before it:" << declined << "\n";
  return info;
}

}  // namespace mmaemu::cli
