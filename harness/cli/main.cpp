// mmaemu: conformance suite for matrix-multiply-accumulate emulation.
// Exit status: 0 all good, 1 a check failed, 2 unusable input (with a message naming the file).
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/cli/commands.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mmaemu: bit-exact conformance of tensor-core MMA emulation", "mmaemu"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mmaemu ") + MMAEMU_VERSION);
  int status = mmaemu::kExitOk;
  mmaemu::cli::add_info(app, status);
  mmaemu::cli::add_mma(app, status);
  mmaemu::cli::add_gemm(app, status);
  mmaemu::cli::add_run(app, status);
  mmaemu::cli::add_record(app, status);
  mmaemu::cli::add_mutate(app, status);
  mmaemu::cli::add_bench(app, status);
  mmaemu::cli::add_merge(app, status);
  mmaemu::cli::add_compare(app, status);
  mmaemu::cli::add_signoff(app, status);
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
