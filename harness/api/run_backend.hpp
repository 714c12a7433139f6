// Running a GEMM problem on the backend the caller named (or the ladder's choice for `auto`), and
// saying which backend ran and why the ones before it declined.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "kernels/backend.hpp"

namespace mmaemu::api {

struct BackendRun {
  kernels::RunInfo info;  // info.backend: the backend that ran
  bool automatic = false;  // chosen by `auto`
  std::vector<std::pair<std::string, Decline>> declined;  // the rungs before it: name, why
};

// Throws InputError("--backend", reason) (exit 2) when the named backend is unknown or declines, or
// when every rung of `auto` declines; a failing run throws kernels::KernelError.
BackendRun run_on_backend(const std::string& name_or_auto, const kernels::GemmProblem& problem);

// "mmaemu: backend tiled ran (auto)\nmmaemu: declined before it:\n  tc: ...": what the command line
// tells stderr after a run.
std::string describe_run(const BackendRun& run);

}  // namespace mmaemu::api
