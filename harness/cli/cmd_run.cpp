// `mmaemu run TIER.yaml...`: runs tiers, writes reports, prints the verdict table.
#include "../tiers/runner.hpp"
#include "commands.hpp"

namespace mmaemu::cli {

void add_run(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("run", "Run tiers (YAML) and write reports; exit 0 pass, 1 fail, 2 bad input");
  auto opts = std::make_shared<RunOptions>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto report_dir = std::make_shared<std::string>("reports");
  cmd->add_option("tiers", *files, "Tier files")->required();
  cmd->add_option("--suite", opts->only_suites, "Run only these suites (repeatable)");
  cmd->add_option("--report-dir", *report_dir, "Where reports go (default: reports)");
  cmd->add_option("--report-stem", opts->report_stem, "Report file name without extension");
  cmd->add_flag("--ctest", opts->ctest, "Exit 77 when every selected suite was skipped (CTest's skip code)");
  cmd->add_flag("--quiet", opts->quiet, "No progress output");
  cmd->callback([opts, files, report_dir, &status] {
    opts->tier_files.assign(files->begin(), files->end());
    opts->report_dir = *report_dir;
    status = run_tiers(*opts);
  });
}

}  // namespace mmaemu::cli
