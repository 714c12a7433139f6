// `mmaemu run TIER.yaml...`: runs tier files of every kind (conformance suites compare, a mutation
// tier runs its campaign, a throughput tier its benchmarks), writes reports, prints one verdict table.
#include "harness/cli/shard_option.hpp"
#include "harness/core/shard.hpp"
#include "harness/mutate/tier_job.hpp"
#include "harness/tiers/runner.hpp"
#include "harness/tiers/ctest_listing.hpp"
#include "harness/reportio/run_report_reader.hpp"

#include <iostream>
#include "harness/cli/commands.hpp"
#include "harness/cli/self_path.hpp"
#include "bench/t6/tier_job.hpp"

namespace mmaemu::cli {

void add_run(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("run", "Run tiers (YAML) and write reports; exit 0 pass, 1 fail, 2 bad input, 130/143 interrupted");
  auto opts = std::make_shared<RunOptions>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto report_dir = std::make_shared<std::string>("reports");
  auto shard = std::make_shared<std::string>("1/1");
  cmd->add_option("tiers", *files, "Tier files: conformance (T2, T3, T3p), mutation (T4), throughput (T6)")->required();
  cmd->add_option("--suite", opts->only_suites, "Run only these suites (repeatable)");
  cmd->add_option("--report-dir", *report_dir, "Where reports go (default: reports)");
  cmd->add_option("--report-stem", opts->report_stem, "Report file name without extension");
  cmd->add_flag("--quick", opts->quick, "Long tiers in their quick form (their `quick:` section)");
  auto seed = std::make_shared<uint64_t>(0);
  auto* seed_opt = cmd->add_option("--seed", *seed,
                                   "Seed of the suites that draw fresh inputs (T3p) and of every property suite (T5): replays a run from its report's seed");
  auto cases = std::make_shared<uint64_t>(0);
  auto* cases_opt = cmd->add_option("--cases", *cases, "Case budget of every property suite (T5), replacing the tier file's")
                        ->check(CLI::Range(uint64_t{1}, uint64_t{10000000}));
  cmd->add_option("--shard", *shard, "Run only shard I of N (I/N; auto: from a Slurm array, a Kubernetes Indexed Job, GitLab parallel or MMAEMU_SHARD, the reports then under DIR/shard-I-of-N); `mmaemu merge` joins the shards' reports");
  cmd->add_option("--jobs", opts->jobs, "Mutation tiers: mutants run in parallel (default: the tier file's)")
      ->check(CLI::Range(1, 256));
  auto prebuilt = std::make_shared<std::string>();
  cmd->add_option("--prebuilt-variants", *prebuilt,
                  "Mutation tiers: the build directory that holds their tests and compile-time variants, built elsewhere");
  cmd->add_flag("--ctest", opts->ctest, "Exit 77 when every selected suite was skipped (CTest's skip code)");
  cmd->add_flag("--quiet", opts->quiet, "No progress output");
  cmd->add_flag("--resume", opts->resume,
                "Continue an interrupted run: the suites already in its report (same inputs) are kept, the others run");
  auto list_ctest = std::make_shared<bool>(false);
  cmd->add_flag("--list-ctest", *list_ctest,
                "Run nothing: print the conformance suites as CTest tests (what tiers/CMakeLists.txt registers)");
  cmd->callback([opts, files, report_dir, shard, prebuilt, seed, seed_opt, cases, cases_opt, list_ctest, &status] {
    if (*list_ctest) {
      std::vector<std::filesystem::path> paths(files->begin(), files->end());
      std::cout << ctest_listing(paths, self_path(), *report_dir);  // a bad file throws: exit 2, named
      status = 0;
      return;
    }
    opts->prebuilt_variants = *prebuilt;
    if (seed_opt->count()) opts->seed = *seed;
    if (cases_opt->count()) opts->cases = *cases;
    opts->tier_files.assign(files->begin(), files->end());
    opts->shard = resolve_shard_option(*shard);
    opts->report_dir = sharded_directory(*report_dir, *shard, opts->shard);
    opts->read_report = reportio::run_report_from_json;
    opts->command_line = "mmaemu run";
    for (const std::string& f : *files) opts->command_line += " " + f;
    for (const std::string& x : opts->only_suites) opts->command_line += " --suite " + x;
    if (opts->quick) opts->command_line += " --quick";
    if (seed_opt->count()) opts->command_line += " --seed " + std::to_string(*seed);
    if (cases_opt->count()) opts->command_line += " --cases " + std::to_string(*cases);
    if (opts->shard.sharded()) opts->command_line += " --shard " + shard_text(opts->shard);
    opts->command_line += " --report-dir " + *report_dir;
    if (!opts->report_stem.empty()) opts->command_line += " --report-stem " + opts->report_stem;
    const std::string mmaemu = self_path();
    opts->job_loaders[TierFileKind::mutation] = [mmaemu](const std::filesystem::path& f, const TierJobContext& c) {
      return mutate::mutation_tier_job(f, c, mmaemu, build_dir());
    };
    opts->job_loaders[TierFileKind::throughput] = [mmaemu](const std::filesystem::path& f, const TierJobContext& c) {
      return t6::throughput_tier_job(f, c, mmaemu);
    };
    status = run_tiers(*opts);
  });
}

}  // namespace mmaemu::cli
