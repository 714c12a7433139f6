// `mmaemu record`: records single-instruction results on this machine's GPU as a fixture set.
#include <iostream>

#include "../core/errors.hpp"
#include "commands.hpp"
#ifdef MMAEMU_HAVE_CUDA
#include "../record/recorder.hpp"
#endif

namespace mmaemu::cli {

void add_record(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("record", "Record fixtures on this machine's GPU (needs CUDA and a GPU)");
  auto out = std::make_shared<std::string>();
  auto seed = std::make_shared<uint64_t>(1);
  auto tiles = std::make_shared<int>(0);
  auto instrs = std::make_shared<std::vector<std::string>>();
  auto device = std::make_shared<int>(0);
  auto commit = std::make_shared<std::string>();
  cmd->add_option("--out", *out, "Fixture set directory to write")->required();
  cmd->add_option("--seed", *seed, "Seed of the input generators");
  cmd->add_option("--tiles-per-family", *tiles, "Tiles per input family (0: at least 50,000 outputs per instruction)");
  cmd->add_option("--instr", *instrs, "Record only these instructions (repeatable)");
  cmd->add_option("--device", *device, "CUDA device index");
  cmd->add_option("--commit", *commit, "Commit to record in the manifest (default: the one this binary was built from)");
  cmd->callback([=, &status] {
#ifdef MMAEMU_HAVE_CUDA
    RecordOptions o;
    o.out_dir = *out;
    o.seed = *seed;
    o.tiles_per_family = *tiles;
    o.instructions = *instrs;
    o.device = *device;
    o.commit = *commit;
    o.command_line = "mmaemu record --out " + *out + " --seed " + std::to_string(*seed);
    if (*tiles) o.command_line += " --tiles-per-family " + std::to_string(*tiles);
    for (const auto& i : *instrs) o.command_line += " --instr " + i;
    status = record_fixtures(o);
#else
    throw InputError("record", "this build has no CUDA support; rebuild with nvcc available");
#endif
  });
}

}  // namespace mmaemu::cli
