// Provenance of a run, for the reports: commit, start time, host, compiler, operating system.
#pragma once
#include <filesystem>
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu {

// `git rev-parse HEAD` in `dir`, or "unknown".
std::string git_commit(const std::filesystem::path& dir);

// "clean", "modified" (tracked files differ from the commit) or "unknown".
std::string git_worktree_state(const std::filesystem::path& dir);

// A RunReport with its provenance filled in and no suites yet. `source_dir` is where to ask git.
RunReport new_run_report(const std::filesystem::path& source_dir);

}  // namespace mmaemu
