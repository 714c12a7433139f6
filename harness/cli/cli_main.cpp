// The command line as main() runs it: the subcommands registered on CLI11, the arguments parsed and
// run, and every documented error mapped onto the exit-status contract. Apart from main() so that
// the command-line fuzz target (fuzz/targets/cli.cpp) runs the very same code in-process.
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/cli/commands.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::cli {

int run_main(int argc, char** argv) {
  CLI::App app{"mmaemu: bit-exact conformance of tensor-core MMA emulation", "mmaemu"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mmaemu ") + MMAEMU_VERSION);
  int status = mmaemu::kExitOk;
  // Options of the program as a whole may also follow the subcommand's name.
  app.fallthrough();
  add_profile_option(app);
  add_info(app, status);
  add_mma(app, status);
  add_gemm(app, status);
  add_run(app, status);
  add_record(app, status);
  add_mutate(app, status);
  add_bench(app, status);
  add_merge(app, status);
  add_compare(app, status);
  add_signoff(app, status);
  add_resolve(app, status);
  add_probe(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return mmaemu::kExitBadInput;
  } catch (const mmaemu::InputError& e) {
    std::cerr << "mmaemu: error: " << e.what() << "\n";
    return mmaemu::kExitBadInput;
  } catch (const mmaemu::ref::UnsupportedInstruction& e) {
    std::cerr << "mmaemu: error: " << e.what() << "\n";
    return mmaemu::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "mmaemu: error: " << e.what() << "\n";
    return mmaemu::kExitBadInput;
  } catch (const mmaemu::kernels::KernelError& e) {
    // A backend failed (a CUDA error, an output left unwritten): an error, never a pass.
    std::cerr << "mmaemu: error: " << e.what() << "\n";
    return mmaemu::kExitCheckFailed;
  }
  return status;
}

}  // namespace mmaemu::cli
