// One tier step of a sign-off: `mmaemu run TIER` in a child process of its own (a process group,
// its output in a log, a time limit), its report read back and judged against the step's rules:
// which suites may skip, whether the step is required, which preflight checks it needs.
#pragma once
#include <atomic>
#include <filesystem>
#include <map>
#include <string>

#include "harness/signoff/check_table.hpp"
#include "harness/signoff/plan.hpp"
#include "harness/signoff/status.hpp"

namespace mmaemu::signoff {

struct StepContext {
  std::filesystem::path out_dir;                // the sign-off directory; the step writes under steps/<name>/
  std::string mmaemu;                           // the program to run (this one)
  std::string prebuilt_variants;                // --prebuilt-variants for mutation tiers; "" none
  std::map<std::string, CheckRow> preflight;    // by check name, for `needs`
  const std::atomic<bool>* stop = nullptr;      // set on SIGINT / SIGTERM: the child is killed
};

// The command a step runs (also recorded in the status record).
std::vector<std::string> step_command(const StepSpec& step, const StepContext& context);

// Runs the step (or refuses it when a needed preflight check did not pass) and judges it.
StepRecord run_tier_step(const StepSpec& step, size_t position, const StepContext& context);

}  // namespace mmaemu::signoff
