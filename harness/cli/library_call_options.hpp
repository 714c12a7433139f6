// The command-line options of a library call (`mmaemu gemm --library`, `mmaemu resolve`), filling the
// description the harness API computes from (harness/api/library_call.hpp).
#pragma once
#include <CLI/CLI.hpp>

#include "harness/api/library_call.hpp"

namespace mmaemu::cli {

// Registers --a-type ... --resolver on `cmd` (with `needs`, when given, as their prerequisite option);
// --resolver defaults to the profile's resolver in this source tree.
void add_library_call_options(CLI::App* cmd, api::LibraryCallOptions& o, CLI::Option* needs);

}  // namespace mmaemu::cli
