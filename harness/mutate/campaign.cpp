#include "harness/core/input_file.hpp"
#include "harness/mutate/campaign.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/core/host_info.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/shard.hpp"
#include "harness/tiers/kernel_conformance_plan.hpp"
#include "harness/tiers/run_info.hpp"
#include "harness/mutate/baseline_diff.hpp"
#include "harness/mutate/campaign_output.hpp"
#include "harness/mutate/catalogue.hpp"
#include "harness/mutate/journal.hpp"
#include "harness/mutate/run_tests.hpp"
#include "harness/mutate/variants.hpp"

namespace mmaemu::mutate {
namespace {

namespace fs = std::filesystem;

// Set by SIGINT / SIGTERM (core/interrupt_guard.hpp): running children are killed, what finished is kept.
std::atomic<bool>& g_stop = interrupt_flag();

// A baseline that never ends would hang the campaign: it gets a generous limit of its own.
constexpr double kBaselineLimitSeconds = 1800;

std::string digest(const std::string& text) { return sha256_hex(text).substr(0, 16); }

std::vector<Mutant> select_mutants(const std::vector<Mutant>& catalogue, const CampaignSpec& c,
                                   const std::vector<std::string>& only) {
  std::vector<Mutant> picked;
  for (const Mutant& m : catalogue)
    if (std::find(c.catalogue_tiers.begin(), c.catalogue_tiers.end(), m.tier) != c.catalogue_tiers.end())
      picked.push_back(m);
  if (only.empty()) return picked;
  std::vector<Mutant> chosen;
  for (const std::string& want : only) {
    const auto it = std::find_if(picked.begin(), picked.end(), [&](const Mutant& m) {
      return std::to_string(m.id) == want || "M" + std::to_string(m.id) == want || m.name == want;
    });
    if (it == picked.end())
      throw InputError("", "--only " + want + ": no mutant of tiers selected by " + c.file.string() + " has that id or name");
    if (std::none_of(chosen.begin(), chosen.end(), [&](const Mutant& m) { return m.id == it->id; })) chosen.push_back(*it);
  }
  return chosen;
}

}  // namespace

void check_quick_covers_every_part(const std::vector<Mutant>& catalogue, const CampaignSpec& c) {
  if (!c.quick) return;
  std::set<std::string> missing;
  for (const Mutant& m : select_mutants(catalogue, c, {})) missing.insert(m.part);
  for (const Mutant& m : select_mutants(catalogue, c, c.quick->mutants)) missing.erase(m.part);
  if (missing.empty()) return;
  std::string list;
  for (const std::string& p : missing) list += (list.empty() ? "" : ", ") + p;
  throw InputError(c.quick->where, "the quick form holds no mutant of part(s) " + list + " (it stands for every part)");
}

namespace {

KillMatrix load_baseline(const fs::path& file) {
  return kill_matrix_from_json(read_input_file(file, "the baseline kill matrix"), file.string());
}

// Runs the tests with no mutant active. Returns the cells; prints every failure.
std::vector<TestCell> run_baseline(TestRunSetup setup, bool& interrupted) {
  setup.timeout_seconds.assign(setup.campaign->tests.size(), kBaselineLimitSeconds);
  setup.stop_at_first_kill = false;
  return run_tests(setup, 0, g_stop, interrupted);
}

// Shard I of N keeps every mutant whose position in the selection falls to it (core/shard.hpp).
std::vector<Mutant> shard_of(const std::vector<Mutant>& mutants, const ShardInfo& shard) {
  std::vector<Mutant> out;
  for (size_t p = 0; p < mutants.size(); ++p)
    if (in_shard(p, shard)) out.push_back(mutants[p]);
  return out;
}

}  // namespace

CampaignOutcome run_campaign(const MutateOptions& given) {
  const auto started = std::chrono::steady_clock::now();
  const CampaignSpec campaign = load_campaign(given.tier_file);
  // The quick form stands for --only and --fast, unless the command line names mutants itself.
  MutateOptions options = given;
  if (options.quick && campaign.quick && options.only.empty()) {
    options.only = campaign.quick->mutants;
    options.fast = options.fast || campaign.quick->fast;
  }
  if (options.baseline.empty()) options.baseline = campaign.baseline;
  const std::vector<Mutant> catalogue = load_catalogue(campaign.catalogue);
  check_quick_covers_every_part(catalogue, campaign);
  const std::vector<Mutant> mutants = shard_of(select_mutants(catalogue, campaign, options.only), options.shard);
  const bool every_mutant = options.only.empty() && !options.shard.sharded();
  std::optional<KillMatrix> baseline;
  if (!options.baseline.empty()) baseline = load_baseline(options.baseline);
  const unsigned jobs = options.jobs ? options.jobs : campaign.jobs;
  CampaignOutcome outcome;
  outcome.jobs = jobs;
  auto ended = [&](int status, std::string reason) {
    outcome.status = status;
    outcome.reason = std::move(reason);
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
  };
  const bool progress_on = !options.quiet && ::isatty(STDERR_FILENO);
  const std::string stem = campaign.tier;
  const fs::path report_dir = fs::absolute(options.report_dir);
  const fs::path log_root = report_dir / (stem + "-logs");
  const fs::path scratch_root = report_dir / (stem + "-scratch");
  outcome.report = report_dir / (stem + ".json");

  // A GPU campaign without a GPU: nothing is built or run (CI has a compiler but no device).
  if (campaign.needs_gpu) {
    const auto why = options.gpu_unavailable ? options.gpu_unavailable() : tiers::gpu_unavailable_reason();
    if (why) {
      const std::string what = campaign.file.string() + " needs a CUDA device (" + *why + ")";
      std::cerr << (options.ctest ? "[" + stem + "] skipped: " : "mmaemu: error: ") << what << "\n";
      outcome.skipped = true;
      return ended(options.ctest ? kExitSkipped : kExitBadInput, what);
    }
  }
  // Held for the campaign: a second campaign of this tier on these reports (kill matrix, journal, logs)
  // fails now, naming this one's pid.
  const ReportLock report_lock(report_dir, stem);
  InterruptGuard interrupt_guard;
  auto interrupted_end = [&](const std::string& what) {
    std::cerr << "mmaemu: interrupted by " << interrupt_signal_name() << ": " << what << "\n";
    return ended(interrupted_exit_status(), "interrupted: " + what);
  };

  // Compile-time variants first: a mutant whose program cannot be had fails the campaign before the
  // baseline spends any time.
  VariantSetup variant_setup;
  variant_setup.build_dir = options.build;
  variant_setup.log_dir = log_root / "build";
  variant_setup.build = options.build_variants;
  variant_setup.progress = progress_on;
  std::map<int, std::string> variant_programs;
  try {
    variant_programs = prepare_variants(campaign, mutants, variant_setup, g_stop);
  } catch (const InputError&) {
    if (g_stop.load()) return interrupted_end("while building the variants, before any mutant ran; nothing to resume");
    throw;
  }

  TestRunSetup setup;
  setup.campaign = &campaign;
  setup.mmaemu = options.mmaemu;
  if (!campaign.program.empty()) {
    // The mutant program {mmaemu} stands for: it must exist before the baseline spends any time.
    fs::path program = expand_program(campaign, options.build);
    if (program.is_relative()) program = campaign.workdir / program;
    if (!fs::is_regular_file(program)) {
      const std::string what = campaign.program_where + ": the mutant program " + program.string() +
                               " is missing: build it (cmake --build <build> --target " +
                               program.filename().string() + ")";
      std::cerr << "mmaemu: error: " << what << "\n";
      return ended(kExitBadInput, what);
    }
    setup.mmaemu = program.lexically_normal().string();
  }
  setup.build = options.build;
  setup.report_dir = report_dir;
  setup.stop_at_first_kill = options.fast;

  // The baseline: every test must pass with no mutant active.
  if (progress_on) std::cerr << "[" << stem << "] baseline: " << campaign.tests.size() << " tests ..." << std::flush;
  TestRunSetup base_setup = setup;
  base_setup.log_dir = log_root / "baseline";
  base_setup.scratch_dir = scratch_root / "baseline";
  bool interrupted = false;
  const std::vector<TestCell> base = run_baseline(base_setup, interrupted);
  if (progress_on) std::cerr << "\n";
  if (interrupted) return interrupted_end("during the baseline, before any mutant ran; nothing to resume");
  bool base_ok = true;
  for (const TestCell& c : base) {
    if (c.outcome == TestOutcome::passed) continue;
    base_ok = false;
    std::cerr << "mmaemu: baseline test " << c.test << ": " << to_string(c.outcome);
    if (c.outcome == TestOutcome::failed) std::cerr << " (exit " << c.exit_code << ")";
    if (c.outcome == TestOutcome::crash) std::cerr << " (" << c.signal << ")";
    if (!c.error.empty()) std::cerr << " (" << c.error << ")";
    std::cerr << "; log: " << (report_dir / c.log).string() << "\n";
  }
  if (!base_ok) {
    std::cerr << "mmaemu: " << kBaselineFails << "\n";
    return ended(kExitBadInput, std::string(kBaselineFails) + "; logs: " + (log_root / "baseline").string());
  }

  KillMatrix matrix;
  matrix.tier = campaign.tier;
  matrix.catalogue = campaign.catalogue.lexically_relative(campaign.workdir).string();
  matrix.commit = git_commit(campaign.workdir);
  matrix.started = utc_now_iso8601();
  matrix.planned = mutants.size();
  matrix.shard = options.shard;
  if (baseline) matrix.baseline_file = options.baseline.string();
  setup.timeout_confirm_factor = campaign.timeout.confirm_factor;
  for (size_t i = 0; i < campaign.tests.size(); ++i) {
    TestInfo info;
    info.name = campaign.tests[i].name;
    info.command = campaign.tests[i].argv;
    info.baseline_seconds = base[i].seconds;
    info.timeout_seconds = campaign.timeout.seconds_for(base[i].seconds);
    setup.timeout_seconds.push_back(info.timeout_seconds);
    matrix.tests.push_back(std::move(info));
  }

  // The journal: results of an earlier run are kept for unchanged entries and tests (--resume).
  const std::string tests_digest = digest(campaign.tests_fingerprint());
  std::map<int, std::string> entry_digests;
  for (const Mutant& m : mutants) entry_digests[m.id] = digest(m.fingerprint());
  Journal journal(report_dir / (stem + ".journal.jsonl"), !options.resume);
  std::vector<const Mutant*> pending;
  if (options.resume) {
    const auto done = journal.finished(entry_digests, tests_digest);
    for (const Mutant& m : mutants) {
      const auto it = done.find(m.id);
      if (it == done.end()) {
        pending.push_back(&m);
      } else {
        MutantResult r = it->second;
        r.mutant = m;  // the catalogue's justification may have been reworded
        matrix.mutants.push_back(std::move(r));
      }
    }
    if (!options.quiet && !matrix.mutants.empty())
      std::cerr << "[" << stem << "] resuming: " << matrix.mutants.size() << " of " << mutants.size()
                << " mutants already judged\n";
  } else {
    for (const Mutant& m : mutants) pending.push_back(&m);
  }

  std::mutex mutex;
  std::atomic<size_t> next{0};
  Progress progress(stem, mutants.size(), progress_on);
  auto sort_results = [&] {
    std::sort(matrix.mutants.begin(), matrix.mutants.end(),
              [](const MutantResult& a, const MutantResult& b) { return a.mutant.id < b.mutant.id; });
  };
  sort_results();
  write_reports(matrix, report_dir, stem);
  progress.update(matrix.mutants.size());
  bool stopped = false;
  std::exception_ptr failure;  // the first error of a worker, rethrown once every worker has ended
  auto work = [&] {
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= pending.size() || g_stop.load()) return;
      const Mutant& m = *pending[i];
      TestRunSetup s = setup;
      if (!variant_programs.empty()) s.mmaemu = variant_programs.at(m.id);  // {mmaemu}: the mutant's variant
      s.log_dir = log_root / (std::to_string(m.id) + "-" + m.name);
      s.scratch_dir = scratch_root / std::to_string(m.id);
      bool cut = false;
      std::vector<TestCell> cells = run_tests(s, m.id, g_stop, cut);
      std::lock_guard<std::mutex> lock(mutex);
      if (cut) {
        stopped = true;
        return;
      }
      MutantResult r = judge(m, std::move(cells));
      journal.append(r, entry_digests.at(m.id), tests_digest);
      matrix.mutants.push_back(std::move(r));
      sort_results();
      write_reports(matrix, report_dir, stem);
      progress.update(matrix.mutants.size());
    }
  };
  auto worker = [&] {
    try {
      work();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      g_stop.store(true);  // the other workers kill their children and end
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(pending.size()))); ++j)
    pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  progress.finish();
  if (failure) std::rethrow_exception(failure);
  std::error_code ec;
  fs::remove_all(scratch_root, ec);
  if (stopped || g_stop.load()) {
    write_reports(matrix, report_dir, stem);
    const std::string what = std::to_string(matrix.mutants.size()) + " of " + std::to_string(mutants.size()) +
                             " mutants judged, kept in " + (report_dir / stem).string() +
                             ".{json,md} and its journal; `--resume` continues from there";
    outcome.matrix = matrix;
    return interrupted_end(what);
  }

  bool regression = false;
  if (baseline) {
    for (const BaselineChange& c : compare_with_baseline(*baseline, matrix, !options.fast, every_mutant)) {
      matrix.baseline_changes.push_back(c.text);
      regression |= c.regression;
    }
  }
  write_reports(matrix, report_dir, stem);
  if (!options.quiet) std::cerr << "reports: " << (report_dir / stem).string() << ".{json,md}\n";
  const bool problem = std::any_of(matrix.mutants.begin(), matrix.mutants.end(),
                                   [](const MutantResult& r) { return is_problem(r.outcome); });
  outcome.matrix = std::move(matrix);
  outcome.finished = true;
  return ended(problem || regression ? kExitCheckFailed : kExitOk, "");
}

int run_mutation_campaign(const MutateOptions& options) {
  const CampaignOutcome outcome = run_campaign(options);
  if (outcome.finished) std::cout << verdict_table(*outcome.matrix, outcome.seconds, outcome.jobs);
  return outcome.status;
}

}  // namespace mmaemu::mutate
