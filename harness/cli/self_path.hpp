// Where this build lies: {build} in T4 test commands. (This program's own path: core/self_path.hpp.)
#pragma once
#include <string>

#include "harness/core/self_path.hpp"

namespace mmaemu::cli {

// {build} in T4 test commands: where this build put the test programs.
std::string build_dir();

}  // namespace mmaemu::cli
