// mmaemu-record: the recorder on its own (the same as `mmaemu record`), for use on a GPU machine.
#include <CLI/CLI.hpp>

#include "harness/record/recorder.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Record single MMA instructions on this machine's GPU as a fixture set"};
  mmaemu::RecordOptions o;
  std::string out;
  app.add_option("--out", out, "Fixture set directory to write")->required();
  app.add_option("--seed", o.seed, "Seed of the input generators");
  app.add_option("--tiles-per-family", o.tiles_per_family, "Tiles per input family (0: >= 50,000 outputs per instruction)");
  app.add_option("--instr", o.instructions, "Record only these instructions (PTX spelling, repeatable)");
  app.add_option("--device", o.device, "CUDA device index");
  app.add_option("--commit", o.commit, "Commit to record as the recorder's (default: the one it was built from)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help is fine; a bad command line is unusable input
  }
  o.out_dir = out;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(i ? argv[i] : "mmaemu-record");
  return mmaemu::record_fixtures(o);
}
