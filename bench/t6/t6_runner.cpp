#include "bench/t6/t6_runner.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <memory>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/tiers/run_info.hpp"
#include "bench/t6/progress.hpp"
#include "bench/t6/t6_report.hpp"
#include "bench/t6/t6_spec.hpp"

namespace mmaemu::t6 {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> selected_sections(const T6Spec& spec, const std::vector<std::string>& asked) {
  const std::vector<std::string>& known = section_names();
  std::vector<std::string> out;
  for (const std::string& s : asked) {
    if (std::find(known.begin(), known.end(), s) == known.end())
      throw InputError("--section", "unknown section '" + s + "'; known: " + section_list());
    if (!has_section(spec, s)) throw InputError(spec.file.string(), "has no " + s + " section (asked for by --section)");
  }
  for (const std::string& s : known)
    if (has_section(spec, s) && (asked.empty() || std::find(asked.begin(), asked.end(), s) != asked.end())) out.push_back(s);
  return out;
}

nlohmann::json read_baseline(const fs::path& file) {
  const std::string text = read_input_file(file, "the baseline");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file.string(), std::string("the baseline is not JSON: ") + e.what());
  }
}

// A section that failed as a whole (not one case of it): one error row, so that it shows and fails.
RateRow section_error(const std::string& section, const std::string& why) {
  return {section, section + "/failed", section + " section", "", "error", why, std::nullopt};
}

// How long an interrupted run waits for a section that stops cleanly on a signal before it stops at
// once: the harness section stops its child runs (each with core/child_process's grace period); the
// gemm section finishes the case at hand (each backend within its budget, cuBLASLt in seconds) and
// keeps every finished case, since a GEMM sweep is the longest part of a sign-off run.
constexpr int kHarnessStopSeconds = 30;
constexpr int kGemmStopSeconds = 90;

int stop_wait_seconds(const std::string& section) {
  if (section == "harness") return kHarnessStopSeconds;
  if (section == "gemm") return kGemmStopSeconds;
  return 0;
}

class Run {
 public:
  Run(const BenchRunOptions& o, const T6Spec& spec) : o_(o), spec_(spec), progress_(o.quiet) {
    stem_ = o.report_stem.empty() ? spec.tier : o.report_stem;
    r_.tier = spec.tier;
    r_.tier_file = spec.file.string();
    r_.targets = spec.targets;
    r_.command = o.command;
    r_.provenance = new_run_report(fs::absolute(spec.file).parent_path());
  }

  // Runs the sections in order, each on a thread of its own (core/interrupt_guard.hpp), writing the
  // reports after each; stops at the first signal, leaving out the section it came in (its rates
  // may be partial).
  void sections(const std::vector<std::string>& names) {
    r_.provenance.planned = names.size();
    r_.provenance.state = RunState::running;
    for (const std::string& name : names) {
      if (interrupt_flag().load()) break;
      const T6Result before = r_;  // what the reports hold if this section does not finish
      // Shared: a section left running (detached) may still set it after this frame is gone.
      const auto measured = std::make_shared<std::atomic<bool>>(false);
      const WorkEnd end = run_until_interrupted([this, name, measured] { measured->store(section(name)); },
                                                std::chrono::seconds(stop_wait_seconds(name)));
      // A signal that lands after the section wrote its reports does not undo it: "interrupted" only
      // says the flag was up when the section's thread ended.
      if (end == WorkEnd::left_running || (end == WorkEnd::interrupted && !measured->load())) {
        cut_short_ = name;
        left_running_ = end == WorkEnd::left_running;
        // Left running, the section still changes r_: the reports come from the copy.
        kept_ = before;
        kept_.provenance.state = RunState::interrupted;
        write(kept_);
        return;
      }
      done_.push_back(name);
    }
    const bool gemm_cut_short = r_.gemm && r_.gemm->interrupted;  // kept, but not whole
    if (interrupt_flag().load() && (done_.size() < names.size() || gemm_cut_short)) {
      kept_ = r_;
      kept_.provenance.state = RunState::interrupted;
      write(kept_);
      return;
    }
    r_.provenance.state = RunState::complete;
    write(r_);
  }

  bool interrupted() const { return interrupt_flag().load() && r_.provenance.state != RunState::complete; }

  // True when the section ran to its end and its rows are in the reports.
  bool section(const std::string& name) {
    try {
      if (name == "reference") reference();
      if (name == "harness") harness();
      if (name == "gemm") gemm();
      if (name == "mmasim") mmasim();
      if (name == "process") process();
      if (name == "model") model();
      if (name == "library") library();
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      r_.rows.push_back(section_error(name, e.what()));
    }
    progress_.finish();
    // Left out (the caller writes what finished before), unless it is the gemm section with finished
    // cases: those are whole measurements, and the report says the section was cut short.
    if (interrupt_flag().load()) return name == "gemm" && r_.gemm && !r_.gemm->points.empty();
    write(r_);  // after every section, so that an interrupted run keeps what it measured
    return true;
  }

  void compare(const nlohmann::json& baseline) {
    r_.baseline = compare_with_baseline(r_.rows, baseline, o_.baseline.string(), spec_.min_drop_percent);
    write(r_);
  }

  BenchOutcome finish() const {
    BenchOutcome o;
    if (interrupted()) {
      o.interrupted = true;
      o.left_running = left_running_;
      o.status = interrupted_exit_status();
      o.report = o_.report_dir / (stem_ + ".json");
      std::string names;
      for (const std::string& s : done_) names += (names.empty() ? "" : ", ") + s;
      o.table = "interrupted by " + std::string(interrupt_signal_name()) + ": " + std::to_string(done_.size()) + " of " +
                std::to_string(kept_.provenance.planned) + " sections finished (" + (names.empty() ? "none" : names) +
                "), kept in " + (o_.report_dir / (stem_ + ".{json,md,svg}")).string() +
                (cut_short_.empty() ? "" : "; " + cut_short_ + " was running and is not kept") +
                (r_.gemm && r_.gemm->interrupted ? "; gemm kept the cases that finished" : "") +
                "; a throughput run is not resumed: run it again\n";
      return o;
    }
    o.table = t6_verdict_table(r_) + "reports: " + (o_.report_dir / (stem_ + ".{json,md,svg}")).string() + "\n";
    o.report = o_.report_dir / (stem_ + ".json");
    o.regressions = r_.baseline ? r_.baseline->regressions() : 0;
    o.errors = r_.errors();
    o.measured = r_.measured();
    o.status = o.errors > 0 || o.regressions > 0 ? kExitCheckFailed : o.measured == 0 ? kExitNothingRan : kExitOk;
    return o;
  }

 private:
  auto progress_for(const std::string& section) {
    return [this, section](size_t done, size_t total, const std::string& what) {
      progress_.update(section, done, total, what);
    };
  }

  void reference() {
    r_.reference = bench::run_dot_bench(spec_.reference->options, progress_for("reference"));
    r_.hardware_threads = r_.reference->hardware_threads;
    for (RateRow& row : reference_rows(*r_.reference)) r_.rows.push_back(std::move(row));
  }

  void harness() {
    bench::HarnessRateOptions h;
    h.cases = spec_.harness->cases;
    h.repetitions = spec_.harness->repetitions;
    h.timeout_seconds = spec_.harness->timeout_seconds;
    h.mmaemu = o_.mmaemu;
    h.scratch = o_.report_dir / (stem_ + "-harness");
    r_.harness = bench::run_harness_rate(h, progress_for("harness"));
    for (RateRow& row : harness_rows(*r_.harness)) r_.rows.push_back(std::move(row));
  }

  void mmasim() {
    bench::MmasimBenchOptions m = spec_.mmasim->options;
    m.scratch = o_.report_dir / (stem_ + "-mmasim");
    r_.mmasim = bench::run_mmasim_bench(m, progress_for("mmasim"));
    for (RateRow& row : mmasim_rows(*r_.mmasim)) r_.rows.push_back(std::move(row));
  }

  void process() {
    bench::ProcessBenchOptions p = spec_.process->options;
    p.mmaemu = o_.mmaemu;
    p.scratch = o_.report_dir / (stem_ + "-process");
    r_.process = bench::run_process_bench(p, progress_for("process"));
    for (RateRow& row : process_rows(*r_.process)) r_.rows.push_back(std::move(row));
  }

  void model() {
    bench::ModelBenchOptions m = spec_.model->options;
    m.scratch = o_.report_dir / (stem_ + "-model");
    r_.model = bench::run_model_bench(m, progress_for("model"));
    for (RateRow& row : model_rows(*r_.model)) r_.rows.push_back(std::move(row));
  }

  void library() {
    bench::LibraryBenchOptions l = spec_.library->options;
    if (spec_.library->native) l.native = native_library_timer();
    if (!spec_.library->sgemm_script.empty())
      l.cpu_blas = bench::python_sgemm_timer({spec_.library->python, spec_.library->sgemm_script,
                                              o_.report_dir / (stem_ + "-library"), l.repetitions, 600});
    r_.library = bench::run_library_bench(l, progress_for("library"));
    for (RateRow& row : library_rows(*r_.library)) r_.rows.push_back(std::move(row));
  }

  void gemm() {
    r_.gemm = run_gemm_section(*spec_.gemm, o_.command, progress_for("gemm"));
    if (!r_.gemm->skipped.empty()) {
      r_.rows.push_back({"gemm", "gemm/skipped", "gemm section", "TMAC/s", "skipped", r_.gemm->skipped, std::nullopt});
      return;
    }
    for (RateRow& row : gemm_rows(*r_.gemm)) r_.rows.push_back(std::move(row));
  }

  void write(const T6Result& r) const {
    const fs::path base = o_.report_dir / stem_;
    write_file_atomic(base.string() + ".json", t6_report_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    write_file_atomic(base.string() + ".md", t6_report_markdown(r));
    write_file_atomic(base.string() + ".svg", render_svg_loglog(gemm_plot(r.gemm ? *r.gemm : GemmSectionResult{})));
    if (r.reference) write_file_atomic(base.string() + ".gbench.json", r.reference->gbench_json);
  }

  // Copies, not references: a section left running when the run is interrupted outlives the caller's.
  const BenchRunOptions o_;
  const T6Spec spec_;
  std::vector<std::string> done_;
  std::string cut_short_;
  bool left_running_ = false;
  T6Result kept_;
  Progress progress_;
  std::string stem_;
  T6Result r_;
};

}  // namespace

BenchOutcome run_bench(const BenchRunOptions& o) {
  const T6Spec spec = load_t6(o.tier_file, o.quick);
  const std::vector<std::string> sections = selected_sections(spec, o.sections);
  std::optional<nlohmann::json> baseline;
  if (!o.baseline.empty()) {  // unusable: exit 2 before anything runs
    baseline = read_baseline(o.baseline);
    compare_with_baseline({}, *baseline, o.baseline.string(), spec.min_drop_percent);
  }
  // Held for the run: a second run writing these reports fails now, naming this one's pid.
  const ReportLock lock(o.report_dir, o.report_stem.empty() ? spec.tier : o.report_stem);
  const InterruptGuard guard;
  auto run = std::make_unique<Run>(o, spec);
  run->sections(sections);
  if (baseline && !run->interrupted()) run->compare(*baseline);
  BenchOutcome outcome = run->finish();
  // A section still running refers to the Run: it is left alive for the process's last moments.
  if (outcome.left_running) (void)run.release();
  return outcome;
}

int run_bench_tier(const BenchRunOptions& o) {
  const BenchOutcome outcome = run_bench(o);
  if (outcome.interrupted) {
    std::cerr << "mmaemu: " << outcome.table << std::flush;
    if (outcome.left_running || work_left_running()) exit_now(outcome.status);
    return outcome.status;
  }
  std::cout << outcome.table;
  return outcome.status;
}

}  // namespace mmaemu::t6
