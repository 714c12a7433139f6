// mmaemu-probe: `mmaemu probe` on its own, for GPU machines (few shared libraries to carry).
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/probe/probe_cli.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Infer each instruction's block model from this machine's GPU (the same as `mmaemu probe`)"};
  auto o = mmaemu::probe::add_probe_options(app);
  try {
    app.parse(argc, argv);
    o->command_line = mmaemu::probe::probe_command_line(*o);
    return mmaemu::probe::run_probe(*o);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : mmaemu::kExitBadInput;
  } catch (const mmaemu::InputError& e) {
    std::cerr << "mmaemu-probe: error: " << e.what() << "\n";
    return mmaemu::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "mmaemu-probe: error: " << e.what() << "\n";
    return mmaemu::kExitBadInput;
  }
}
