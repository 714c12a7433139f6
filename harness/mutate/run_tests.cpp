#include "harness/mutate/run_tests.hpp"

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
  for (size_t i = 0; i < tests.size(); ++i) {
    TestCell cell;
    cell.test = tests[i].name;
    if (killed && setup.stop_at_first_kill) {
      cells.push_back(cell);  // not_run
      continue;
    }
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
        return cells;
      case ChildResult::End::not_started:
        cell.outcome = TestOutcome::error;
        cell.error = r.error;
        break;
    }
    killed |= cell.kills();
    cells.push_back(cell);
    if (stop.load()) {
      interrupted = i + 1 < tests.size();
      if (interrupted) return cells;
    }
  }
  return cells;
}

}  // namespace mmaemu::mutate
