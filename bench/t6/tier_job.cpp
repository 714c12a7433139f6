#include "bench/t6/tier_job.hpp"

#include "harness/core/errors.hpp"
#include "bench/t6/t6_runner.hpp"
#include "bench/t6/t6_spec.hpp"

namespace mmaemu::t6 {

TierJob throughput_tier_job(const std::filesystem::path& file, const TierJobContext& context, const std::string& mmaemu) {
  const T6Spec spec = load_t6(file, context.quick);
  TierJob job;
  job.tier = spec.tier;
  job.name = "benchmarks";
  job.labels = {"T6", "cpu"};
  if (spec.gemm) job.labels.push_back("gpu");
  BenchRunOptions options;
  options.tier_file = file;
  options.report_dir = context.report_dir;
  options.quiet = true;
  options.quick = context.quick;
  options.mmaemu = mmaemu;
  options.command = "mmaemu run " + file.string() + (context.quick ? " --quick" : "");
  job.run = [options] {
    const BenchOutcome o = run_bench(options);
    SuiteResult r;
    // Every rate measured is a case compared; a benchmark in error is a mismatch.
    r.compared = o.measured + o.errors;
    r.mismatched = o.errors;
    r.groups["measured"] = {o.measured, 0};
    if (o.errors) r.groups["in error"] = {o.errors, o.errors};
    r.reason = std::to_string(o.measured) + " rates measured; report " + o.report.filename().string();
    if (o.status == kExitNothingRan) {
      r.verdict = Verdict::skip;
      r.reason = "nothing this machine can run (" + r.reason + ")";
    } else if (o.status != kExitOk) {
      r.verdict = Verdict::fail;
    }
    return r;
  };
  return job;
}

}  // namespace mmaemu::t6
