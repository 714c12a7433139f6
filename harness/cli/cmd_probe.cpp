// mmaemu probe: infer the block model of each instruction on this machine's GPU (harness/probe).
#include "harness/cli/commands.hpp"
#include "harness/probe/probe_run.hpp"

namespace mmaemu::cli {

void add_probe(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("probe", "Infer each instruction's block model from the GPU's outputs; write a "
                                          "profile file, the recordings and a report");
  auto o = std::make_shared<probe::ProbeRunOptions>();
  cmd->add_option("--instr", o->instructions, "Instructions to probe (repeatable; default: every one the GPU runs)");
  cmd->add_option("--out", o->out, "Output directory (profile.yaml, fixtures/, T2-probe.yaml, report.md/json)")->required();
  cmd->add_option("--seed", o->seed, "Seed of the probe's random tiles")->capture_default_str();
  cmd->add_option("--fresh-seed", o->fresh_seed, "Seed of the fresh recording (default: derived from --seed)");
  cmd->add_option("--fresh-tiles-per-family", o->fresh_tiles_per_family,
                  "Tiles per family of the fresh recording (default: >= 50,000 outputs)");
  cmd->add_option("--oracle", o->oracle, "gpu (default), or reference: probe the reference model of --arch (a dry run)")
      ->check(CLI::IsMember({"gpu", "reference"}));
  cmd->add_option("--arch", o->arch, "The reference oracle's architecture");
  cmd->add_option("--device", o->device, "CUDA device index")->capture_default_str();
  cmd->callback([o, &status, argv = std::string()] {
    o->command_line = "mmaemu probe";
    for (const auto& i : o->instructions) o->command_line += " --instr " + i;
    o->command_line += " --out " + o->out.string() + " --seed " + std::to_string(o->seed) + " --oracle " + o->oracle;
    if (!o->arch.empty()) o->command_line += " --arch " + o->arch;
    status = probe::run_probe(*o);
  });
}

}  // namespace mmaemu::cli
