// `mmaemu signoff PLAN.yaml --out DIR`: whether this build may be released, with the evidence.
#include "harness/cli/shard_option.hpp"
#include "harness/core/shard.hpp"
#include "harness/signoff/signoff.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/self_path.hpp"

namespace mmaemu::cli {

void add_signoff(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "signoff", "Release sign-off from a plan (YAML): exit 0 may release, 1 may not, 2 bad input, 130/143 interrupted");
  auto opts = std::make_shared<signoff::SignoffOptions>();
  auto plan = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto previous = std::make_shared<std::string>();
  auto shard = std::make_shared<std::string>("1/1");
  cmd->add_option("plan", *plan, "Sign-off plan (YAML), e.g. release/signoff-cpu.yaml")->required();
  cmd->add_option("--out", *out, "The sign-off directory: status record, reports, every step's evidence");
  cmd->add_option("--compare", *previous, "An earlier sign-off's directory: list every difference (0 differences passes)");
  cmd->add_flag("--resume", opts->resume, "Continue an interrupted sign-off in --out: finished steps are kept");
  cmd->add_option("--shard", *shard, "Run only shard I of N of the tier steps (I/N; auto: from a Slurm array, a Kubernetes Indexed Job, GitLab parallel or MMAEMU_SHARD, the reports then under --out/shard-I-of-N); `mmaemu merge` joins the shards");
  cmd->add_flag("--update-records", opts->update_records,
                "Rewrite the committed device-code record and shipped-data manifest the plan names, then stop");
  cmd->add_option("--prebuilt-variants", opts->prebuilt_variants,
                  "Mutation tiers' build directory (tests and compile-time variants) built elsewhere");
  cmd->add_flag("--quiet", opts->quiet, "No progress output");
  cmd->callback([opts, plan, out, previous, shard, &status] {
    opts->plan = *plan;
    opts->previous = *previous;
    opts->shard = resolve_shard_option(*shard);
    opts->out = out->empty() ? *out : sharded_directory(*out, *shard, opts->shard);
    opts->mmaemu = self_path();
    opts->build_dir = build_dir();
    status = signoff::run_signoff(*opts);
  });
}

}  // namespace mmaemu::cli
