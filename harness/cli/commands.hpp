// Subcommands of `mmaemu`. Each registers its options on the CLI11 app and returns the exit status
// of its run through the callback it installs.
#pragma once
#include <CLI/CLI.hpp>

namespace mmaemu::cli {

// --profile FILE (also MMAEMU_PROFILE, comma-separated): installs profile files before the subcommand
// runs, and passes them on to the child processes a run starts.
void add_profile_option(CLI::App& app);

// Each add_* registers a subcommand; when it is selected, its callback stores the exit status here.
void add_info(CLI::App& app, int& status);
void add_mma(CLI::App& app, int& status);
void add_gemm(CLI::App& app, int& status);
void add_run(CLI::App& app, int& status);
void add_record(CLI::App& app, int& status);
void add_mutate(CLI::App& app, int& status);
void add_bench(CLI::App& app, int& status);
void add_merge(CLI::App& app, int& status);
void add_compare(CLI::App& app, int& status);
void add_signoff(CLI::App& app, int& status);
void add_resolve(CLI::App& app, int& status);
void add_probe(CLI::App& app, int& status);

// Parses argv, runs the selected subcommand and returns the exit status (errors mapped onto 0/1/2 as
// the README says): main() in full.
int run_main(int argc, char** argv);

}  // namespace mmaemu::cli
