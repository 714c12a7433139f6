// This very program's path, wherever it was started from: {mmaemu} in T4 test commands and the
// program T6's harness section and the main job run.
#pragma once
#include <string>

namespace mmaemu::cli {

std::string self_path();

// {build} in T4 test commands: where this build put the test programs.
std::string build_dir();

}  // namespace mmaemu::cli
