// `mmaemu mutate T4.yaml`: a mutation campaign (tier T4): baseline, every mutant in child processes,
// the kill matrix and the mutation score.
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/cli/shard_option.hpp"
#include "harness/core/shard.hpp"
#include "harness/mutate/campaign.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/self_path.hpp"

namespace mmaemu::cli {

void add_mutate(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "mutate", "Mutation campaign (T4): kill matrix and score; exit 0 as expected, 1 a mutant survived, 2 bad input, 130/143 interrupted");
  auto opts = std::make_shared<mutate::MutateOptions>();
  auto file = std::make_shared<std::string>();
  auto report_dir = std::make_shared<std::string>("reports");
  auto baseline = std::make_shared<std::string>();
  opts->build = build_dir();
  auto shard = std::make_shared<std::string>("1/1");
  cmd->add_option("tier", *file, "T4 tier file (YAML)")->required();
  cmd->add_flag("--resume", opts->resume, "Keep the journal's results for unchanged mutants and tests");
  cmd->add_option("--jobs", opts->jobs, "Mutants run in parallel (default: the tier file's)")->check(CLI::Range(1, 256));
  cmd->add_option("--only", opts->only, "Run only these mutants (ids or names)");
  cmd->add_option("--baseline", *baseline, "A committed kill matrix (JSON) to compare with");
  cmd->add_option("--report-dir", *report_dir, "Where reports, logs and the journal go (default: reports)");
  cmd->add_option("--build-dir", opts->build, "What {build} stands for in test commands (default: this build)");
  cmd->add_flag("--fast", opts->fast, "Stop a mutant's tests at its first kill (the kill matrix is then partial)");
  cmd->add_flag("--quick", opts->quick, "The tier's quick form: its `quick:` mutants, each stopped at its first kill");
  cmd->add_option("--shard", *shard, "Run only shard I of N of the mutants (I/N; auto: from a Slurm array, a Kubernetes Indexed Job, GitLab parallel or MMAEMU_SHARD, the reports then under DIR/shard-I-of-N); `mmaemu merge` joins the kill matrices");
  cmd->add_flag("--quiet", opts->quiet, "No progress output");
  auto no_build = std::make_shared<bool>(false);
  cmd->add_flag("--no-build", *no_build,
                "Take the tier's compile-time variants as already built (exit 2 naming a missing one)");
  cmd->add_flag("--ctest", opts->ctest, "Exit 77 (a CTest skip) when the tier needs a device this machine lacks");
  cmd->callback([opts, file, report_dir, baseline, no_build, shard, &status] {
    opts->shard = resolve_shard_option(*shard);
    opts->build_variants = !*no_build;
    opts->tier_file = *file;
    opts->report_dir = sharded_directory(*report_dir, *shard, opts->shard);
    opts->baseline = *baseline;
    opts->mmaemu = self_path();
    try {
      status = mutate::run_mutation_campaign(*opts);
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      // Reports or the journal could not be written: the campaign cannot be trusted.
      std::cerr << "mmaemu: error: " << e.what() << "\n";
      status = kExitBadInput;
    }
  });
}

}  // namespace mmaemu::cli
