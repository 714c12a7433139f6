#include "harness/mutate/run_tests.hpp"

#include <algorithm>
#include <numeric>

#include "harness/core/child_process.hpp"

namespace mmaemu::mutate {

std::vector<TestCell> run_tests(const TestRunSetup& setup, int mutant, const std::atomic<bool>& stop, bool& interrupted) {
  namespace fs = std::filesystem;
  interrupted = false;
  std::vector<TestCell> cells;
  bool killed = false;
  bool hang_confirmed = false;  // a timeout of this mutant survived its confirmation run
  fs::create_directories(setup.log_dir);
  const auto& tests = setup.campaign->tests;
  // The cells stay in the tier's order; the tests run in `order`. Stopping at the first kill, the
  // cheapest come first (their limits follow the baseline's times): a mutant a unit test kills in
  // 0.1 s is not made to wait for a replay of every cuBLASLt recording. Which test kills first is then
  // not the tier's first killer, and --fast compares verdicts only (campaign.cpp).
  std::vector<size_t> order(tests.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (setup.stop_at_first_kill)
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return setup.timeout_seconds.at(a) < setup.timeout_seconds.at(b); });
  cells.resize(tests.size());
  for (size_t i = 0; i < tests.size(); ++i) cells[i].test = tests[i].name;  // not_run until they run
  for (size_t done = 0; done < order.size(); ++done) {
    const size_t i = order[done];
    TestCell& cell = cells[i];
    if (killed && setup.stop_at_first_kill) continue;
    const fs::path scratch = setup.scratch_dir / tests[i].name;
    std::error_code ec;
    fs::remove_all(scratch, ec);
    fs::create_directories(scratch);
    ChildRequest req;
    req.argv = expand(tests[i], Placeholders{setup.mmaemu, setup.build, scratch.string()});
    req.workdir = setup.campaign->workdir;
    req.log = setup.log_dir / (tests[i].name + ".log");
    // The mutant programs switch a mutant on when MMAEMU_MUTANT names it (mutants/switch.hpp).
    if (mutant != 0) req.environment["MMAEMU_MUTANT"] = std::to_string(mutant);
    else req.environment["MMAEMU_MUTANT"] = std::nullopt;
    req.timeout_seconds = setup.timeout_seconds.at(i);
    ChildResult r = run_child(req, stop);
    if (r.end == ChildResult::End::timed_out && setup.timeout_confirm_factor > 0 && req.timeout_seconds > 0 &&
        !hang_confirmed) {
      // Confirm the hang with a far longer limit: a kill must not depend on the machine's load. Once
      // one test confirmed it, the mutant is known to hang and its later timeouts are taken as they are.
      cell.first_timeout_seconds = req.timeout_seconds;
      req.timeout_seconds *= setup.timeout_confirm_factor;
      fs::remove_all(scratch, ec);
      fs::create_directories(scratch);
      r = run_child(req, stop);
    }
    hang_confirmed |= cell.first_timeout_seconds > 0 && r.end == ChildResult::End::timed_out;
    fs::remove_all(scratch, ec);
    cell.seconds = r.seconds;
    cell.log = req.log.lexically_relative(setup.report_dir).string();
    switch (r.end) {
      case ChildResult::End::exited:
        cell.outcome = r.exit_code == 0 ? TestOutcome::passed : TestOutcome::failed;
        cell.exit_code = r.exit_code;
        break;
      case ChildResult::End::signalled:
        cell.outcome = TestOutcome::crash;
        cell.signal = signal_name(r.signal);
        break;
      case ChildResult::End::timed_out:
        cell.outcome = TestOutcome::timeout;
        break;
      case ChildResult::End::interrupted:
        interrupted = true;
        cell = TestCell{};
        cell.test = tests[i].name;
        return cells;
      case ChildResult::End::not_started:
        cell.outcome = TestOutcome::error;
        cell.error = r.error;
        break;
    }
    killed |= cell.kills();
    if (stop.load()) {
      interrupted = done + 1 < order.size();
      if (interrupted) return cells;
    }
  }
  return cells;
}

}  // namespace mmaemu::mutate
