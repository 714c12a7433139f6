// Runs a campaign's tests for one mutant (or for none: the baseline), each as its own child process,
// and turns what each process did into a kill-matrix cell.
#pragma once
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/mutate/campaign_spec.hpp"
#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::mutate {

struct TestRunSetup {
  const CampaignSpec* campaign = nullptr;
  std::string mmaemu;                    // {mmaemu}
  std::string build;                     // {build}
  std::filesystem::path report_dir;      // logs are named relative to it
  std::filesystem::path log_dir;         // this mutant's logs: <log_dir>/<test>.log
  std::filesystem::path scratch_dir;     // {scratch} is <scratch_dir>/<test>, emptied before and after
  std::vector<double> timeout_seconds;   // per test; 0: none
  double timeout_confirm_factor = 0;     // >0: a timeout is re-run with this many times the limit (TimeoutRule)
  bool stop_at_first_kill = false;       // --fast
};

// Runs every test with MMAEMU_MUTANT=mutant (0: unset). `stop` interrupts: the running child is
// killed and the function returns what it has, with `interrupted` set.
std::vector<TestCell> run_tests(const TestRunSetup& setup, int mutant, const std::atomic<bool>& stop, bool& interrupted);

}  // namespace mmaemu::mutate
