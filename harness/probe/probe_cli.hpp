// The options of `mmaemu probe`, registered once for the mmaemu subcommand and for the standalone
// mmaemu-probe (the probe alone, with few shared libraries, for GPU machines).
#pragma once
#include <CLI/CLI.hpp>

#include <memory>

#include "harness/probe/probe_run.hpp"

namespace mmaemu::probe {

// Registers the options on `cmd`; the returned options are filled when it parses.
std::shared_ptr<ProbeRunOptions> add_probe_options(CLI::App& cmd);
// The command line of a parsed run, for manifests and reports.
std::string probe_command_line(const ProbeRunOptions& o);

}  // namespace mmaemu::probe
