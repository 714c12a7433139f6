// mmaemu probe: infer the block model of each instruction on this machine's GPU (harness/probe).
#include "harness/cli/commands.hpp"
#include "harness/probe/probe_cli.hpp"

namespace mmaemu::cli {

void add_probe(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("probe", "Infer each instruction's block model from the GPU's outputs; write a "
                                          "profile file, the recordings and a report");
  auto o = probe::add_probe_options(*cmd);
  cmd->callback([o, &status] {
    o->command_line = probe::probe_command_line(*o);
    status = probe::run_probe(*o);
  });
}

}  // namespace mmaemu::cli
