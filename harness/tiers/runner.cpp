#include "harness/tiers/runner.hpp"

#include <algorithm>

#include <unistd.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <functional>
#include <list>
#include <set>
#include <utility>

#include "harness/core/errors.hpp"
#include "harness/core/reports.hpp"
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
  std::string id() const { return tier + "." + name; }
};

struct LoadedRun {
  std::list<TierSpec> conformance;  // the units' suites point into these (a list: stable addresses)
  std::vector<std::string> tier_names;
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
  const bool progress = !options.quiet && ::isatty(STDERR_FILENO);

  bool reports_written = true;
  for (size_t i = 0; i < units.size(); ++i) {
    const auto& [position, unit] = units[i];
    if (progress) std::cerr << "[" << i + 1 << "/" << units.size() << "] " << unit->id() << " ..." << std::flush;
    run.suites.push_back(run_unit(*unit, skip_reasons[i]));
    run.suites.back().position = position;
    if (progress)
      std::cerr << " " << verdict_name(run.suites.back().verdict) << " (" << std::fixed << std::setprecision(2)
                << run.suites.back().seconds << " s)\n";
    try {
      write_reports(run, options.report_dir, stem);
    } catch (const std::exception& e) {
      if (reports_written) print_error(std::string("cannot write reports: ") + e.what());
      reports_written = false;
    }
  }
  if (units.empty()) {  // a shard with nothing to do still leaves its (empty) report for the merge
    try {
      write_reports(run, options.report_dir, stem);
    } catch (const std::exception& e) {
      print_error(std::string("cannot write reports: ") + e.what());
      reports_written = false;
    }
  }
  std::cout << verdict_table::render(run) << std::flush;
  if (reports_written && progress) std::cerr << "reports: " << (options.report_dir / stem).string() << ".{json,xml,md}\n";
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
