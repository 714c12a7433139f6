#include "harness/mutate/tier_job.hpp"

#include <map>

#include "harness/core/errors.hpp"
#include "harness/mutate/campaign.hpp"
#include "harness/mutate/campaign_spec.hpp"

namespace mmaemu::mutate {
namespace {

SuiteResult as_suite_result(const CampaignOutcome& o, const CampaignSpec& spec) {
  SuiteResult r;
  if (o.skipped) {
    r.verdict = Verdict::skip;
    r.reason = o.reason;
    return r;
  }
  if (!o.finished) {
    r.verdict = Verdict::error;
    r.reason = o.reason;
  } else {
    r.verdict = o.status == kExitOk ? Verdict::pass : Verdict::fail;
  }
  if (!o.matrix) return r;
  const KillMatrix& m = *o.matrix;
  std::map<std::string, GroupCount> groups;
  for (const MutantResult& mr : m.mutants) {
    GroupCount& g = groups[to_string(mr.outcome)];
    ++g.compared;
    ++r.compared;
    if (!is_problem(mr.outcome)) continue;
    ++g.mismatched;
    ++r.mismatched;
    // The TestFloat way: which mutant, what the catalogue expects of it, what happened.
    r.first_mismatches.push_back({spec.tier, "M" + std::to_string(mr.mutant.id) + " " + mr.mutant.name,
                                  mr.mutant.target + ": " + mr.mutant.fault, std::string("expected ") + to_string(mr.mutant.expect),
                                  to_string(mr.outcome)});
  }
  r.groups = std::move(groups);
  // Changes against the committed kill matrix are listed in it; those that fail the campaign (a
  // mutant killed there survives now) have made its status 1 already.
  const std::string changes = m.baseline_changes.empty() ? "" : "; " + std::to_string(m.baseline_changes.size()) +
                                                                    " changes against the baseline (in the kill matrix)";
  // The file name alone: the report sits beside it, and paths differ between machines.
  const std::string summary = score_text(m.score()) + " killed" + changes + "; kill matrix " + o.report.filename().string();
  r.reason = r.reason.empty() ? summary : r.reason + "; " + summary;
  return r;
}

}  // namespace

TierJob mutation_tier_job(const std::filesystem::path& file, const TierJobContext& context, const std::string& mmaemu,
                          const std::string& build) {
  const CampaignSpec spec = load_campaign(file);
  TierJob job;
  job.tier = spec.tier;
  job.name = "campaign";
  job.labels = {"T4", spec.needs_gpu ? "gpu" : "cpu"};
  MutateOptions options;
  options.tier_file = file;
  options.report_dir = context.report_dir;
  options.quick = context.quick;
  options.quiet = true;  // one progress line per row of the run is all a terminal shows
  options.mmaemu = mmaemu;
  options.build = build;
  options.ctest = true;  // no device for a GPU campaign: a skip with the reason, not an error
  options.jobs = context.jobs;
  if (!context.prebuilt_variants.empty()) {  // a machine without a compiler: variants built elsewhere
    options.build = context.prebuilt_variants.string();
    options.build_variants = false;
  }
  job.run = [options, spec] { return as_suite_result(run_campaign(options), spec); };
  return job;
}

}  // namespace mmaemu::mutate
