// Running a GEMM problem on the backend the user named (or the ladder's choice for `auto`), telling
// stderr which backend ran and why the ones before it declined.
#pragma once
#include <string>

#include "kernels/backend.hpp"

namespace mmaemu::cli {

// Throws InputError("--backend", reason) (exit 2) when the named backend is unknown or declines, or
// when every rung of `auto` declines; a failing run throws kernels::KernelError.
kernels::RunInfo run_on_backend(const std::string& name_or_auto, const kernels::GemmProblem& problem);

}  // namespace mmaemu::cli
