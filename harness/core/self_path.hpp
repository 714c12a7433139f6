// This very program's path, wherever it was started from: what the harness runs again as a child
// ({mmaemu} in T4's test commands, T6's harness section, the main job, T5's reader properties).
#pragma once
#include <string>

namespace mmaemu {

std::string self_path();

}  // namespace mmaemu
