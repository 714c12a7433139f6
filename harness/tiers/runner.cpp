#include "harness/core/input_file.hpp"
#include "harness/tiers/runner.hpp"

#include <algorithm>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <iostream>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/core/reports.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/shard.hpp"
#include "harness/core/verdict_table.hpp"
#include "harness/tiers/known_mismatches.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/tiers/run_info.hpp"
#include "harness/tiers/suite_kind.hpp"
#include "harness/tiers/tier_loader.hpp"

namespace mmaemu {
namespace {

void print_error(const std::string& message) { std::cerr << "mmaemu: error: " << message << "\n"; }

// One row of the verdict table: a conformance suite, or a mutation or throughput tier as a whole.
struct Unit {
  std::string tier;
  std::string name;
  std::vector<std::string> labels;
  std::string where;                        // for "defined in two tier files"
  std::function<std::string()> skip_reason;  // "" to run; throws InputError for an absent required input
  std::function<SuiteResult()> run;
  // A mutation or throughput tier looks at the interrupt flag (it kills its children and returns);
  // an in-process conformance suite does not, and an interrupted run does not wait for it.
  bool stops_on_interrupt = false;
  std::string id() const { return tier + "." + name; }
};

struct LoadedRun {
  std::list<TierSpec> conformance;  // the units' suites point into these (a list: stable addresses)
  std::vector<std::string> tier_names;
  std::set<std::string> job_tiers;  // mutation and throughput tiers: they write <tier>.json and the like themselves
  std::vector<Unit> units;          // in file order, then suite order: the order positions count in
};

Unit suite_unit(const SuiteSpec& spec, bool quick) {
  Unit u{spec.tier, spec.name, spec.labels, spec.where, {}, {}};
  u.skip_reason = [&spec, quick] {
    if (quick && !spec.in_quick_form) return std::string("a long suite the quick form leaves out (run without --quick)");
    return check_inputs(spec);
  };
  u.run = [&spec] {
    SuiteResult r = find_suite_kind(spec.kind)->run(spec);
    apply_known_mismatches(r, spec);
    return r;
  };
  return u;
}

Unit job_unit(TierJob job, const std::filesystem::path& file) {
  Unit u{job.tier, job.name, job.labels, file.string(), {}, std::move(job.run)};
  u.skip_reason = [reason = job.skip_reason] { return reason; };
  u.stops_on_interrupt = true;
  return u;
}

bool kind_takes(const SuiteSpec& spec, const std::string& key) {
  const SuiteKind* kind = find_suite_kind(spec.kind);
  return kind && std::any_of(kind->keys.begin(), kind->keys.end(), [&](const KeySpec& k) { return k.name == key; });
}

// A number given on the command line for one of the suite's keys (`--seed`, `--cases`).
void set_number(SuiteSpec& spec, const std::string& key, uint64_t number, const std::string& option) {
  SchemaValue v;
  v.type = ValueType::integer;
  v.where = option;
  v.number = number;
  v.text = std::to_string(number);
  spec.values[key] = v;
}

// --seed: a suite whose kind takes `seed:` and whose entry gives none would draw a fresh seed; a kind
// whose seed is replaceable (T5) takes it whatever the entry says.
// --cases: replaces the budget of every suite whose kind takes `cases:`.
void apply_run_options(SuiteSpec& spec, const RunOptions& options) {
  spec.report_dir = options.report_dir;
  spec.progress = !options.quiet && ::isatty(STDERR_FILENO);
  const SuiteKind* kind = find_suite_kind(spec.kind);
  if (options.seed && kind_takes(spec, "seed") && (!spec.has("seed") || (kind && kind->seed_replaceable)))
    set_number(spec, "seed", *options.seed, "--seed");
  if (options.cases && kind_takes(spec, "cases")) set_number(spec, "cases", *options.cases, "--cases");
}

LoadedRun load_run(const RunOptions& options) {
  if (options.tier_files.empty()) throw InputError("", "no tier file given");
  LoadedRun run;
  const TierJobContext context{options.report_dir, options.quick, options.quiet, options.jobs, options.prebuilt_variants};
  for (const auto& f : options.tier_files) {
    const TierFileKind kind = classify_tier_file(f);
    if (kind == TierFileKind::conformance) {
      TierSpec& t = run.conformance.emplace_back(load_tier(f));
      for (SuiteSpec& s : t.suites) apply_run_options(s, options);
      run.tier_names.push_back(t.tier);
      for (const SuiteSpec& s : t.suites) run.units.push_back(suite_unit(s, options.quick));
      continue;
    }
    const auto loader = options.job_loaders.find(kind);
    if (loader == options.job_loaders.end())
      throw InputError(f.string(), std::string("this program cannot run ") + tier_file_kind_name(kind) + " tier files");
    TierJob job = loader->second(f, context);
    run.tier_names.push_back(job.tier);
    run.job_tiers.insert(job.tier);
    run.units.push_back(job_unit(std::move(job), f));
  }
  std::set<std::string> ids;
  for (const Unit& u : run.units)
    if (!ids.insert(u.id()).second) throw InputError(u.where, "suite " + u.id() + " is defined in two tier files");
  return run;
}

bool selected(const Unit& u, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& o : only)
    if (o == u.name || o == u.id()) return true;
  return false;
}

// The selected units with their positions in the whole selection (before sharding).
std::vector<std::pair<size_t, const Unit*>> select_units(const LoadedRun& run, const RunOptions& options) {
  std::vector<const Unit*> picked;
  std::string known;
  for (const Unit& u : run.units) {
    known += (known.empty() ? "" : ", ") + u.id();
    if (selected(u, options.only_suites)) picked.push_back(&u);
  }
  for (const std::string& o : options.only_suites) {
    bool found = false;
    for (const Unit* u : picked) found = found || o == u->name || o == u->id();
    if (!found) throw InputError("--suite", "no suite named '" + o + "' in the tier files; known suites: " + known);
  }
  std::vector<std::pair<size_t, const Unit*>> out;
  for (size_t p = 0; p < picked.size(); ++p)
    if (in_shard(p, options.shard)) out.emplace_back(p, picked[p]);
  return out;
}

// Named after the whole selection, never after one shard's part of it: every shard of a run writes
// the same file name, which is how `mmaemu merge` groups them.
std::string default_stem(const LoadedRun& run, const RunOptions& options) {
  std::string stem;
  if (!options.only_suites.empty()) {
    for (const Unit& u : run.units)
      if (selected(u, options.only_suites)) stem += (stem.empty() ? "" : "+") + u.id();
  } else {
    for (const std::string& t : run.tier_names) stem += (stem.empty() ? "" : "+") + t;
  }
  if (stem.size() > 120) stem = stem.substr(0, 120);  // keep file names short enough for every file system
  // `mmaemu run tiers/T4-cpu.yaml`: the campaign writes T4-cpu.json (its kill matrix) in the same
  // directory, so the run's own reports take another name.
  if (run.job_tiers.count(stem)) stem += ".run";
  return stem;
}

SuiteResult error_result(const std::string& reason) {
  SuiteResult r;
  r.verdict = Verdict::error;
  r.reason = reason;
  return r;
}

// Runs one unit; every exception becomes a verdict, so that one bad unit does not stop the others.
SuiteResult run_unit(const Unit& unit, const std::string& skip_reason) {
  const auto t0 = std::chrono::steady_clock::now();
  SuiteResult r;
  if (!skip_reason.empty()) {
    r.verdict = Verdict::skip;
    r.reason = skip_reason;
  } else {
    try {
      r = unit.run();
    } catch (const InputError& e) {
      r = error_result(e.what());
    } catch (const ref::UnsupportedInstruction& e) {
      r = error_result(e.what());
    } catch (const std::exception& e) {
      r = error_result(std::string("internal error: ") + e.what());
    }
  }
  r.tier = unit.tier;
  r.suite = unit.name;
  r.labels = unit.labels;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

int exit_status(const RunReport& run, bool ctest) {
  const VerdictCounts n = count_verdicts(run);
  if (n.error > 0) return kExitBadInput;
  if (n.fail > 0) return kExitCheckFailed;
  if (ctest && n.skip == n.total()) return kExitAllSkipped;
  return kExitOk;
}

// How long an interrupted run waits for a unit that stops on the flag (a campaign kills its children,
// each with core/child_process's grace period) before it stops at once.
constexpr int kJobStopSeconds = 30;

// nullopt when the run was interrupted before the unit ended: what it did then is not kept (a
// mutation tier returns a partial campaign), and a resumed run runs it again. `left_running`: the
// unit is still running, and the caller must stop the process (exit_now) before `unit` goes.
std::optional<SuiteResult> run_interruptible(const Unit& unit, const std::string& skip_reason, bool& left_running) {
  // Shared with the worker, which may outlive this call (left running).
  auto r = std::make_shared<SuiteResult>();
  const WorkEnd end = run_until_interrupted([r, &unit, skip_reason] { *r = run_unit(unit, skip_reason); },
                                            std::chrono::seconds(unit.stops_on_interrupt ? kJobStopSeconds : 0));
  if (end == WorkEnd::finished) return std::move(*r);
  left_running = end == WorkEnd::left_running;
  return std::nullopt;
}

std::string read_text(const std::filesystem::path& file) {
  return read_input_file(file, "the report to resume");
}

// What a run's results depend on (but the shard), as one digest: a resumed run keeps earlier results only when its
// own would have been made from the same inputs by the same program.
std::string inputs_digest(const RunOptions& o, const RunReport& run, const std::string& stem) {
  std::string s = "mmaemu-run-inputs/1\nversion " + run.tool_version + "\ncommit " + run.commit + "\nprogram " +
                  (run.environment.count("program") ? run.environment.at("program") : "") + "\nstem " + stem + "\n";
  for (const auto& f : o.tier_files) s += "tier " + sha256_file(f) + " " + f.string() + "\n";
  for (const auto& x : o.only_suites) s += "suite " + x + "\n";
  s += std::string("quick ") + (o.quick ? "1" : "0") + "\n";
  if (o.seed) s += "seed " + std::to_string(*o.seed) + "\n";
  if (o.cases) s += "cases " + std::to_string(*o.cases) + "\n";
  // Not the shard: every shard of one run has the same inputs, which is how a merged report keeps
  // them (resumable() checks the shard itself).
  return sha256_hex(s);
}

// --resume: the suites of the earlier report, by position, when it was made from the same inputs.
std::map<size_t, SuiteResult> resumable(const RunOptions& o, const RunReport& run, const std::string& stem) {
  const std::filesystem::path file = o.report_dir / (stem + ".json");
  std::map<size_t, SuiteResult> kept;
  if (!std::filesystem::exists(file)) return kept;  // nothing to resume: the run starts afresh
  if (!o.read_report) throw InputError("--resume", "this program cannot read reports back");
  const RunReport earlier = o.read_report(read_text(file), file.string());
  if (earlier.inputs_sha256 != run.inputs_sha256 || earlier.shard.index != run.shard.index ||
      earlier.shard.count != run.shard.count)
    throw InputError(file.string(),
                     "was written by a run of other inputs (tier files, --suite, --quick, --seed, --cases, --shard, "
                     "or another build of mmaemu): run without --resume to start afresh, or choose another --report-dir");
  for (const SuiteResult& s : earlier.suites) kept[s.position] = s;
  return kept;
}

std::string id_list(const std::vector<SuiteResult>& suites) {
  std::string out;
  for (const SuiteResult& s : suites) out += (out.empty() ? "" : ", ") + s.tier + "." + s.suite;
  return out.empty() ? "none" : out;
}

int run_checked(const RunOptions& options) {
  // Everything that can be wrong with the input is found before the first unit runs.
  const LoadedRun loaded = load_run(options);
  const auto units = select_units(loaded, options);
  std::vector<std::string> skip_reasons;
  for (const auto& [position, u] : units) skip_reasons.push_back(u->skip_reason());

  RunReport run = new_run_report(std::filesystem::absolute(options.tier_files.front()).parent_path());
  for (const auto& f : options.tier_files) run.tier_files.push_back(f.string());
  run.shard = options.shard;
  const std::string stem = options.report_stem.empty() ? default_stem(loaded, options) : options.report_stem;
  if (loaded.job_tiers.count(stem))
    throw InputError("--report-stem", "'" + stem + "' is the name of tier " + stem +
                                          "'s own reports in the same directory: choose another stem");
  const bool progress = !options.quiet && ::isatty(STDERR_FILENO);
  run.planned = units.size();
  run.inputs_sha256 = inputs_digest(options, run, stem);

  // Held until the run ends: a second run on the same reports fails now, naming this one's pid; a
  // read-only report directory is found here, before any work.
  const ReportLock lock(options.report_dir, stem);
  const InterruptGuard guard;
  const std::map<size_t, SuiteResult> kept = options.resume ? resumable(options, run, stem) : std::map<size_t, SuiteResult>{};
  const std::string reports = (options.report_dir / stem).string() + ".{json,xml,md}";

  // The reports are the run's product: a run that cannot write them stops (exit 2, the file named).
  auto write = [&]() -> bool {
    try {
      write_reports(run, options.report_dir, stem);
      return true;
    } catch (const std::exception& e) {
      print_error(std::string("cannot write the reports: ") + e.what());
      return false;
    }
  };

  run.state = units.empty() ? RunState::complete : RunState::running;
  bool reports_written = true;
  size_t resumed = 0;
  std::string cut_short;     // the unit that was running when the signal came
  bool left_running = false;
  for (size_t i = 0; i < units.size() && reports_written; ++i) {
    if (interrupt_flag().load()) break;
    const auto& [position, unit] = units[i];
    const auto earlier = kept.find(position);
    if (earlier != kept.end() && earlier->second.tier == unit->tier && earlier->second.suite == unit->name) {
      run.suites.push_back(earlier->second);
      ++resumed;
      if (progress) std::cerr << "[" << i + 1 << "/" << units.size() << "] " << unit->id() << " kept from the earlier run\n";
    } else {
      if (progress) std::cerr << "[" << i + 1 << "/" << units.size() << "] " << unit->id() << " ..." << std::flush;
      std::optional<SuiteResult> r = run_interruptible(*unit, skip_reasons[i], left_running);
      if (!r) {
        cut_short = unit->id();
        if (progress) std::cerr << " interrupted\n";
        break;
      }
      run.suites.push_back(std::move(*r));
      run.suites.back().position = position;
      if (progress)
        std::cerr << " " << verdict_name(run.suites.back().verdict) << " (" << std::fixed << std::setprecision(2)
                  << run.suites.back().seconds << " s)\n";
    }
    if (i + 1 == units.size()) run.state = RunState::complete;
    reports_written = write();
  }
  // Said even under --quiet: which results were not made by this invocation is part of the result.
  if (resumed > 0)
    std::cerr << "mmaemu: resumed: " << resumed << " of " << units.size() << " suites kept from " << reports << "\n";
  const bool interrupted = interrupt_flag().load() && run.state != RunState::complete;
  if (interrupted && reports_written) {
    run.state = RunState::interrupted;
    reports_written = write();
  }
  if (units.empty()) reports_written = write();  // a shard with nothing to do still leaves its (empty) report for the merge
  std::cout << verdict_table::render(run) << std::flush;
  if (interrupted) {
    std::cerr << "mmaemu: interrupted by " << interrupt_signal_name() << ": " << run.suites.size() << " of "
              << units.size() << " suites finished (" << id_list(run.suites) << ")"
              << (reports_written ? ", kept in " + reports : ", but the reports could not be written");
    if (!cut_short.empty()) std::cerr << "; " << cut_short << " was running and is not kept";
    std::cerr << "; the same command with --resume runs the rest"
              << (options.command_line.empty() ? "" : ": " + options.command_line + " --resume") << "\n"
              << std::flush;
    // A suite still running in-process cannot be stopped in between: the process ends here, its
    // temporary files removed (the reports above are whole).
    if (left_running || work_left_running()) exit_now(interrupted_exit_status());
    return interrupted_exit_status();
  }
  if (reports_written && progress) std::cerr << "reports: " << reports << "\n";
  const int status = exit_status(run, options.ctest);
  return reports_written ? status : kExitBadInput;
}

}  // namespace

int run_tiers(const RunOptions& options) {
  try {
    return run_checked(options);
  } catch (const InputError& e) {
    print_error(e.what());
    return kExitBadInput;
  }
}

}  // namespace mmaemu
