#include "harness/probe/probe_cli.hpp"

namespace mmaemu::probe {

std::shared_ptr<ProbeRunOptions> add_probe_options(CLI::App& cmd) {
  auto o = std::make_shared<ProbeRunOptions>();
  cmd.add_option("--instr", o->instructions, "Instructions to probe (repeatable; default: every one the GPU runs)");
  cmd.add_option("--out", o->out, "Output directory (profile.yaml, fixtures/, T2-probe.yaml, report.md/json)")->required();
  cmd.add_option("--seed", o->seed, "Seed of the probe's random tiles")->capture_default_str();
  cmd.add_option("--fresh-seed", o->fresh_seed, "Seed of the fresh recording (default: derived from --seed)");
  cmd.add_option("--fresh-tiles-per-family", o->fresh_tiles_per_family,
                 "Tiles per family of the fresh recording (default: >= 50,000 outputs)");
  cmd.add_option("--oracle", o->oracle,
                 "gpu (default); reference: probe the reference model of --arch (a dry run); recorded:DIR[,DIR]: "
                 "the outputs of fixture sets (a probe's own, a recorder's), looked up by their inputs")
      ->check([](const std::string& v) {
        return v == "gpu" || v == "reference" || v.rfind("recorded:", 0) == 0 ? std::string() : "gpu, reference or recorded:DIR[,DIR]";
      });
  cmd.add_option("--arch", o->arch, "The reference oracle's architecture");
  cmd.add_option("--device", o->device, "CUDA device index")->capture_default_str();
  cmd.add_option("--cublaslt", o->library_kernels,
                 "Probe cuBLASLt kernels instead of instructions: TYPE:ALGO[:CUSTOM] (repeatable), e.g. bf16:66, "
                 "e4m3:66, fp32:55:1");
  return o;
}

std::string probe_command_line(const ProbeRunOptions& o) {
  std::string s = "mmaemu probe";
  for (const auto& i : o.instructions) s += " --instr " + i;
  s += " --out " + o.out.string() + " --seed " + std::to_string(o.seed) + " --oracle " + o.oracle;
  if (!o.arch.empty()) s += " --arch " + o.arch;
  if (o.fresh_seed) s += " --fresh-seed " + std::to_string(o.fresh_seed);
  for (const auto& k : o.library_kernels) s += " --cublaslt " + k;
  if (o.fresh_tiles_per_family) s += " --fresh-tiles-per-family " + std::to_string(o.fresh_tiles_per_family);
  return s;
}

}  // namespace mmaemu::probe
