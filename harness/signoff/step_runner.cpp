#include "harness/core/input_file.hpp"
#include "harness/signoff/step_runner.hpp"

#include <fstream>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/host_info.hpp"
#include "harness/core/child_process.hpp"
#include "harness/reportio/run_report_reader.hpp"

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

std::string relative_dir(const StepSpec& step) { return "steps/" + step.name; }

// The premises: every check the step needs passed in this machine's preflight.
std::string refused_because(const StepSpec& step, const StepContext& context) {
  std::string why;
  for (const std::string& need : step.needs) {
    const auto it = context.preflight.find(need);
    if (it != context.preflight.end() && it->second.status == Status::pass) continue;
    std::string what = need + " is ";
    if (it == context.preflight.end()) {
      what += "not checked";
    } else {
      what += std::string(status_name(it->second.status)) + " (seen '" + it->second.seen + "', expected '" +
              it->second.expected + "')";
    }
    why += (why.empty() ? "" : "; ") + what;
  }
  return why.empty() ? "" : "refused on this machine: " + why;
}

std::string slurp(const fs::path& file) {
  if (!fs::exists(file)) throw InputError(file.string(), "the step wrote no report");
  return read_input_file(file, "the step's report");
}

// Reads the run's report and judges it against the step's rules.
void judge_report(const StepSpec& step, const RunReport& run, StepRecord& r) {
  std::string unallowed;  // required suites that skipped
  std::string notes;
  for (const SuiteResult& s : run.suites) {
    r.compared += s.compared;
    r.mismatched += s.mismatched;
    switch (s.verdict) {
      case Verdict::pass: ++r.units_pass; break;
      case Verdict::fail:
        ++r.units_fail;
        notes += (notes.empty() ? "" : "; ") + s.tier + "." + s.suite + " failed: " + s.reason;
        break;
      case Verdict::error:
        ++r.units_error;
        notes += (notes.empty() ? "" : "; ") + s.tier + "." + s.suite + " in error: " + s.reason;
        break;
      case Verdict::skip:
        ++r.units_skip;
        if (step.allowed_skip(s.suite) == nullptr && step.allowed_skip(s.tier + "." + s.suite) == nullptr)
          unallowed += (unallowed.empty() ? "" : "; ") + s.tier + "." + s.suite + " skipped (" + s.reason + ")";
        break;
    }
  }
  const auto pinned = pinned_profiles(run.suites);
  std::string unpinned;
  for (const std::string& p : step.require_pinned)
    if (!pinned.count(p)) unpinned += (unpinned.empty() ? "" : ", ") + p;
  if (run.suites.empty()) {
    r.verdict = StepVerdict::error;
    r.reason = "the step's report lists no suite";
  } else if (r.units_error > 0) {
    r.verdict = StepVerdict::error;
    r.reason = notes;
  } else if (r.units_fail > 0) {
    r.verdict = StepVerdict::fail;
    r.reason = notes;
  } else if (!unpinned.empty()) {
    r.verdict = StepVerdict::fail;
    r.reason = "profiles the plan requires pinned by recorded hardware were not: " + unpinned +
               (unallowed.empty() ? "" : "; " + unallowed);
  } else if (!unallowed.empty() && step.required) {
    r.verdict = StepVerdict::fail;  // a required step that skips proves nothing on this machine
    r.reason = "required, but " + unallowed;
  } else if (r.units_pass == 0) {
    r.verdict = StepVerdict::skip;
    r.reason = unallowed.empty() ? "every suite skipped, as the plan allows" : unallowed;
  } else {
    r.verdict = StepVerdict::pass;
    r.reason = unallowed;  // skips of a step that is not required, shown but not failing
  }
}

}  // namespace

std::vector<std::string> step_command(const StepSpec& step, const StepContext& context) {
  std::vector<std::string> argv = {context.mmaemu, "run", step.tier_file.string(), "--ctest", "--quiet",
                                   "--report-dir", (context.out_dir / relative_dir(step)).string(),
                                   "--report-stem", step.name};
  for (const std::string& s : step.suites) {
    argv.push_back("--suite");
    argv.push_back(s);
  }
  if (step.quick) argv.push_back("--quick");
  if (step.jobs) {
    argv.push_back("--jobs");
    argv.push_back(std::to_string(step.jobs));
  }
  if (!context.prebuilt_variants.empty()) {
    argv.push_back("--prebuilt-variants");
    argv.push_back(context.prebuilt_variants);
  }
  return argv;
}

StepRecord run_tier_step(const StepSpec& step, size_t position, const StepContext& context) {
  StepRecord r;
  r.name = step.name;
  r.kind = "tier";
  r.position = position;
  r.required = step.required;
  r.command = step_command(step, context);
  r.start_utc = utc_now_iso8601();
  const std::string refused = refused_because(step, context);
  if (!refused.empty()) {
    r.verdict = StepVerdict::refused;
    r.reason = refused;
    r.end_utc = r.start_utc;
    return r;
  }
  const fs::path dir = context.out_dir / relative_dir(step);
  std::error_code ec;
  fs::remove_all(dir, ec);  // a resumed step starts afresh: no report of an earlier try is taken for its own
  fs::create_directories(dir);
  ChildRequest request;
  request.argv = r.command;
  request.workdir = fs::current_path();
  request.log = context.out_dir / (relative_dir(step) + ".log");
  request.timeout_seconds = step.timeout_seconds;
  static const std::atomic<bool> never{false};
  const ChildResult child = run_child(request, context.stop ? *context.stop : never);
  r.end_utc = utc_now_iso8601();
  r.seconds = child.seconds;
  r.exit_status = child.exit_code;
  r.reports = {relative_dir(step) + ".log"};
  using End = ChildResult::End;
  if (child.end != End::exited) {
    r.verdict = child.end == End::interrupted ? StepVerdict::interrupted : StepVerdict::error;
    r.reason = child.end == End::timed_out     ? "timed out after " + std::to_string(int(step.timeout_seconds)) + " s"
               : child.end == End::signalled   ? "ended by " + signal_name(child.signal)
               : child.end == End::interrupted ? "interrupted"
                                               : "could not start: " + child.error;
    return r;
  }
  const fs::path report = dir / (step.name + ".json");
  try {
    const RunReport run = reportio::run_report_from_json(slurp(report), report.string());
    r.reports.push_back(relative_dir(step) + "/" + step.name + ".json");
    judge_report(step, run, r);
  } catch (const InputError& e) {
    r.verdict = StepVerdict::error;
    r.reason = std::string(e.what()) + " (exit status " + std::to_string(child.exit_code) + "; log " + r.reports[0] + ")";
    return r;
  }
  // The exit status must tell the same story as the report: a disagreement is a defect of the run.
  const bool exit_fails = child.exit_code == 1 || child.exit_code == 2;
  const bool report_fails = r.units_fail + r.units_error > 0;
  if (exit_fails != report_fails) {
    r.verdict = StepVerdict::error;
    r.reason = "exit status " + std::to_string(child.exit_code) + " disagrees with the report; " + r.reason;
  }
  return r;
}

}  // namespace mmaemu::signoff
