#include "runner.hpp"

#include <unistd.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <set>

#include "../core/errors.hpp"
#include "../core/reports.hpp"
#include "../core/verdict_table.hpp"
#include "known_mismatches.hpp"
#include "mmaemu/reference/model.hpp"
#include "run_info.hpp"
#include "suite_kind.hpp"
#include "tier_loader.hpp"

namespace mmaemu {
namespace {

void print_error(const std::string& message) { std::cerr << "mmaemu: error: " << message << "\n"; }

std::vector<TierSpec> load_tiers(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) throw InputError("", "no tier file given");
  std::vector<TierSpec> tiers;
  std::set<std::string> ids;
  for (const auto& f : files) {
    tiers.push_back(load_tier(f));
    for (const SuiteSpec& s : tiers.back().suites)
      if (!ids.insert(s.id()).second) throw InputError(s.where, "suite " + s.id() + " is defined in two tier files");
  }
  return tiers;
}

bool selected(const SuiteSpec& s, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& o : only)
    if (o == s.name || o == s.id()) return true;
  return false;
}

std::vector<const SuiteSpec*> select_suites(const std::vector<TierSpec>& tiers, const std::vector<std::string>& only) {
  std::vector<const SuiteSpec*> out;
  std::string known;
  for (const TierSpec& t : tiers)
    for (const SuiteSpec& s : t.suites) {
      known += (known.empty() ? "" : ", ") + s.id();
      if (selected(s, only)) out.push_back(&s);
    }
  for (const std::string& o : only) {
    bool found = false;
    for (const SuiteSpec* s : out) found = found || o == s->name || o == s->id();
    if (!found) throw InputError("--suite", "no suite named '" + o + "' in the tier files; known suites: " + known);
  }
  return out;
}

std::string default_stem(const std::vector<TierSpec>& tiers, const std::vector<const SuiteSpec*>& suites,
                         bool some_selected) {
  std::string stem;
  if (some_selected) {
    for (const SuiteSpec* s : suites) stem += (stem.empty() ? "" : "+") + s->id();
  } else {
    for (const TierSpec& t : tiers) stem += (stem.empty() ? "" : "+") + t.tier;
  }
  if (stem.size() > 120) stem = stem.substr(0, 120);  // keep file names short enough for every file system
  return stem;
}

// Runs one suite; every exception becomes a verdict, so that one bad suite does not stop the others.
SuiteResult run_suite(const SuiteSpec& spec, const std::string& skip_reason) {
  const auto t0 = std::chrono::steady_clock::now();
  SuiteResult r;
  if (!skip_reason.empty()) {
    r.verdict = Verdict::skip;
    r.reason = skip_reason;
  } else {
    try {
      r = find_suite_kind(spec.kind)->run(spec);
      apply_known_mismatches(r, spec);
    } catch (const InputError& e) {
      r = SuiteResult{};
      r.verdict = Verdict::error;
      r.reason = e.what();
    } catch (const ref::UnsupportedInstruction& e) {
      r = SuiteResult{};
      r.verdict = Verdict::error;
      r.reason = e.what();
    } catch (const std::exception& e) {
      r = SuiteResult{};
      r.verdict = Verdict::error;
      r.reason = std::string("internal error: ") + e.what();
    }
  }
  r.tier = spec.tier;
  r.suite = spec.name;
  r.labels = spec.labels;
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
  // Everything that can be wrong with the input is found before the first suite runs.
  const std::vector<TierSpec> tiers = load_tiers(options.tier_files);
  const std::vector<const SuiteSpec*> suites = select_suites(tiers, options.only_suites);
  std::vector<std::string> skip_reasons;
  for (const SuiteSpec* s : suites) skip_reasons.push_back(check_inputs(*s));

  RunReport run = new_run_report(std::filesystem::absolute(options.tier_files.front()).parent_path());
  for (const auto& f : options.tier_files) run.tier_files.push_back(f.string());
  const std::string stem =
      options.report_stem.empty() ? default_stem(tiers, suites, !options.only_suites.empty()) : options.report_stem;
  const bool progress = !options.quiet && ::isatty(STDERR_FILENO);

  bool reports_written = true;
  for (size_t i = 0; i < suites.size(); ++i) {
    if (progress) std::cerr << "[" << i + 1 << "/" << suites.size() << "] " << suites[i]->id() << " ..." << std::flush;
    run.suites.push_back(run_suite(*suites[i], skip_reasons[i]));
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
