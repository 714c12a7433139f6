#include "harness/signoff/signoff.hpp"

#include <unistd.h>

#include <atomic>
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/core/host_info.hpp"
#include "harness/core/shard.hpp"
#include "harness/tiers/run_info.hpp"
#include "harness/signoff/checks.hpp"
#include "harness/signoff/comparison.hpp"
#include "harness/signoff/plan.hpp"
#include "harness/signoff/signoff_report.hpp"
#include "harness/signoff/status.hpp"
#include "harness/signoff/step_runner.hpp"

#ifndef MMAEMU_VERSION
#define MMAEMU_VERSION "unknown"
#endif

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

// Set by SIGINT / SIGTERM (core/interrupt_guard.hpp): the running step's child is killed; what
// finished stays in the record.
std::atomic<bool>& g_stop = interrupt_flag();

// The record a resumed sign-off continues, or a new one. Refuses to mix two sign-offs in one folder.
SignoffRecord start_record(const SignoffPlan& plan, const SignoffOptions& o) {
  const bool exists = fs::exists(o.out / "signoff.json");
  if (exists && !o.resume)
    throw InputError(o.out.string(), "holds a sign-off already: --resume continues it, or choose another --out");
  if (o.resume && exists) {
    SignoffRecord r = read_signoff_record(o.out);
    if (r.plan_sha256 != plan.sha256)
      throw InputError((o.out / "signoff.json").string(),
                       "was made with another plan (sha256 " + r.plan_sha256 + ", " + plan.file.string() + " is " + plan.sha256 +
                           "): start a new sign-off");
    if (r.shard.index != o.shard.index || r.shard.count != o.shard.count)
      throw InputError((o.out / "signoff.json").string(), "is shard " + std::to_string(r.shard.index) + "/" +
                                                              std::to_string(r.shard.count) + ": resume it with that --shard");
    return r;
  }
  SignoffRecord r;
  r.plan = plan.name;
  r.plan_file = plan.file.string();
  r.plan_sha256 = plan.sha256;
  r.shard = o.shard;
  r.previous = o.previous.string();
  return r;
}

// Tier steps a resumed sign-off keeps: finished ones whose report is still there.
std::map<std::string, StepRecord> finished_steps(const SignoffRecord& earlier, const fs::path& out) {
  std::map<std::string, StepRecord> kept;
  for (const StepRecord& s : earlier.steps) {
    if (s.kind != "tier" || !finished(s.verdict)) continue;
    bool reports_there = true;
    for (const std::string& f : s.reports) reports_there = reports_there && fs::exists(out / f);
    if (reports_there) kept[s.name] = s;
  }
  return kept;
}

class Signoff {
 public:
  Signoff(const SignoffPlan& plan, const SignoffOptions& o, SignoffRecord record)
      : plan_(plan), o_(o), record_(std::move(record)), progress_(!o.quiet && ::isatty(STDERR_FILENO)) {}

  int run() {
    const std::map<std::string, StepRecord> kept = finished_steps(record_, o_.out);
    record_.steps.clear();
    record_.complete = false;
    record_.started_utc = utc_now_iso8601();
    record_.commit = git_commit(plan_.file.parent_path());
    record_.tool_version = MMAEMU_VERSION;

    // The checks, every time (a resumed sign-off may run on another machine than it started on).
    std::map<std::string, CheckRow> preflight_rows;
    add_check(preflight_entry(plan_, o_.out, preflight_rows));
    const bool preflight_passed = record_.steps.back().verdict == StepVerdict::pass;
    if (plan_.device_code) add_check(device_code_entry(plan_, o_.out, o_.build_dir));
    add_check(data_entry(plan_, o_.out));

    StepContext context{o_.out, o_.mmaemu, o_.prebuilt_variants, preflight_rows, &g_stop};
    const size_t steps_here = count_steps_here();
    size_t done = 0;
    for (size_t position = 0; position < plan_.steps.size(); ++position) {
      if (!in_shard(position, o_.shard)) continue;
      const StepSpec& step = plan_.steps[position];
      if (!preflight_passed) {
        add(not_run(step, position, "the preflight failed: this machine is not the one the plan describes"));
        continue;
      }
      if (g_stop.load()) {
        add(not_run(step, position, "the sign-off was interrupted before this step"));
        continue;
      }
      if (const auto it = kept.find(step.name); it != kept.end()) {
        add(it->second);
        ++done;
        continue;
      }
      if (progress_) std::cerr << "[signoff " << ++done << "/" << steps_here << "] " << step.name << " ..." << std::flush;
      add(run_tier_step(step, position, context));
      if (progress_)
        std::cerr << " " << verdict_name(record_.steps.back().verdict) << " (" << record_.steps.back().seconds << " s)\n";
    }
    if (!o_.previous.empty() && preflight_passed && !g_stop.load()) add_check(comparison_entry(o_.previous, o_.out));

    const bool interrupted = g_stop.load();
    record_.finished_utc = utc_now_iso8601();
    record_.complete = !interrupted;
    record_.verdict = overall_verdict(record_.steps);
    write();
    std::cout << verdict_table(record_) << std::flush;
    if (!o_.quiet) std::cerr << "sign-off: " << (o_.out / "signoff").string() << ".{json,md,xml}\n";
    if (interrupted) {
      size_t n_finished = 0;
      std::string names;
      for (const StepRecord& r : record_.steps)
        if (r.kind == "tier" && finished(r.verdict)) {
          ++n_finished;
          names += (names.empty() ? "" : ", ") + r.name;
        }
      std::cerr << "mmaemu: interrupted by " << interrupt_signal_name() << ": " << n_finished << " of " << steps_here
                << " steps finished (" << (names.empty() ? "none" : names) << "), kept in " << (o_.out / "signoff.json").string()
                << "; `mmaemu signoff " << plan_.file.string() << " --out " << o_.out.string()
                << " --resume` continues where it stopped\n";
      return interrupted_exit_status();
    }
    return record_.verdict == StepVerdict::pass ? kExitOk : kExitCheckFailed;
  }

 private:
  size_t count_steps_here() const {
    size_t n = 0;
    for (size_t p = 0; p < plan_.steps.size(); ++p) n += in_shard(p, o_.shard) ? 1 : 0;
    return n;
  }

  StepRecord not_run(const StepSpec& step, size_t position, const std::string& why) const {
    StepRecord r;
    r.name = step.name;
    r.kind = "tier";
    r.position = position;
    r.required = step.required;
    r.verdict = StepVerdict::not_run;
    r.reason = why;
    return r;
  }

  void add_check(CheckEntry entry) {
    tables_.push_back(std::move(entry.table));
    add(std::move(entry.record));
  }

  void add(StepRecord r) {
    record_.steps.push_back(std::move(r));
    write();  // after every entry: an interrupted sign-off keeps what finished
  }

  void write() const { write_signoff_reports(record_, o_.out, tables_); }

  const SignoffPlan& plan_;
  const SignoffOptions& o_;
  SignoffRecord record_;
  bool progress_;
  std::vector<std::string> tables_;
};

int run_checked(const SignoffOptions& o) {
  // Everything that can be wrong with the input is found before anything runs.
  const SignoffPlan plan = load_plan(o.plan);
  if (o.update_records) {
    std::cout << update_records(plan, o.build_dir);
    return kExitOk;
  }
  if (o.out.empty()) throw InputError("--out", "a sign-off needs a directory for its evidence");
  if (!o.previous.empty()) {
    if (o.shard.sharded())
      throw InputError("--compare", "compare the merged sign-off (`mmaemu merge`, then `mmaemu compare`), not a shard");
    read_signoff_record(o.previous);  // a missing directory or another schema: exit 2 now
    if (fs::exists(o.out) && fs::equivalent(o.out, o.previous))
      throw InputError("--compare", "the previous sign-off is the directory this one writes to");
  }
  // Held for the sign-off (it creates --out): a second one into the same --out fails now, naming this
  // one's pid; a read-only --out is exit 2 here, before anything runs.
  const ReportLock lock(o.out, "mmaemu");
  SignoffRecord record = start_record(plan, o);
  InterruptGuard guard;
  Signoff signoff(plan, o, std::move(record));
  return signoff.run();
}

}  // namespace

int run_signoff(const SignoffOptions& options) {
  try {
    return run_checked(options);
  } catch (const InputError& e) {
    std::cerr << "mmaemu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace mmaemu::signoff
