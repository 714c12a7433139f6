// `mmaemu bench T6.yaml`: the throughput tier (T6): the reference's and the kernels' arithmetic on the
// CPU beside a float loop and beside MMA-Sim, the cuBLASLt model per engine, the harness's cases per
// second, and the GPU backends' GEMM beside cuBLASLt;
// JSON, Markdown and an SVG plot, compared with a baseline when given one.
#include "harness/cli/commands.hpp"
#include "harness/cli/self_path.hpp"
#include "bench/t6/t6_runner.hpp"
#include "bench/t6/t6_spec.hpp"

namespace mmaemu::cli {

void add_bench(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "bench",
      "Throughput tier (T6): exit 0 fine, 1 a regression or a failed case, 2 bad input, 77 nothing could run, 130/143 interrupted");
  auto opts = std::make_shared<t6::BenchRunOptions>();
  auto file = std::make_shared<std::string>();
  auto report_dir = std::make_shared<std::string>("reports");
  auto baseline = std::make_shared<std::string>();
  cmd->add_option("tier", *file, "T6 tier file (YAML)")->required();
  cmd->add_option("--baseline", *baseline, "An earlier T6 JSON report: compare by ratio, flag drops beyond the noise");
  cmd->add_option("--section", opts->sections, "Run only these sections: " + t6::section_list() + " (repeatable)");
  cmd->add_option("--report-dir", *report_dir, "Where the reports go (default: reports)");
  cmd->add_option("--report-stem", opts->report_stem, "File name of the reports without extension (default: the tier)");
  cmd->add_flag("--quick", opts->quick, "The tier's quick form (its `quick:` sections)");
  cmd->add_flag("--quiet", opts->quiet, "No progress output");
  cmd->callback([opts, file, report_dir, baseline, &status] {
    opts->tier_file = *file;
    opts->report_dir = *report_dir;
    opts->baseline = *baseline;
    opts->mmaemu = self_path();
    opts->command = "mmaemu bench " + *file + (baseline->empty() ? "" : " --baseline " + *baseline);
    for (const std::string& s : opts->sections) opts->command += " --section " + s;
    if (opts->quick) opts->command += " --quick";
    status = t6::run_bench_tier(*opts);
  });
}

}  // namespace mmaemu::cli
