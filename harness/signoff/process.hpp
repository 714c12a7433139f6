// The sign-off's outside programs (git, cuobjdump): run one with a time limit in a working directory
// and read back everything it printed. The child runs through the campaign runner of T4
// (harness/core/child_process.hpp), which already handles process groups and time limits; their files go
// to a ScratchDir (harness/core/scratch_dir.hpp).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/scratch_dir.hpp"

namespace mmaemu::signoff {

struct ProgramOutput {
  bool ran = false;       // false: it could not be started, or it was killed (`error` says why)
  int exit_code = 0;
  std::string output;     // stdout and stderr together
  std::string error;
};

// Runs argv (argv[0] a path, or a name on PATH) in `workdir` with stdin from /dev/null.
ProgramOutput run_program(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                          double timeout_seconds = 300);

// The first executable of `name` on PATH, or "" when there is none.
std::filesystem::path find_on_path(const std::string& name);

}  // namespace mmaemu::signoff
