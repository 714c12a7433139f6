// Runs one test command as a child process in a process group of its own, with its output in a log
// file and a time limit: on timeout (or when the campaign is interrupted) the whole group is killed,
// so a hanging test, and whatever it started, never outlives its limit.
#pragma once
#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mmaemu {

struct ChildResult {
  enum class End { exited, signalled, timed_out, interrupted, not_started };
  End end = End::not_started;
  int exit_code = 0;   // exited
  int signal = 0;      // signalled
  double seconds = 0;  // wall time from fork to reaping (the wait wakes when the child ends: no polling step)
  long peak_rss_kb = 0;  // exited or signalled: the child's peak resident memory (getrusage's ru_maxrss)
  std::string error;   // not_started: why (program not found, ...)
};

struct ChildRequest {
  std::vector<std::string> argv;       // argv[0]: a path (relative to `workdir`) or a name on PATH
  std::filesystem::path workdir;
  std::filesystem::path log;           // stdout and stderr go here (truncated first)
  // Changes to the inherited environment: a value sets the variable, nullopt removes it.
  std::map<std::string, std::optional<std::string>> environment;
  double timeout_seconds = 0;          // 0: none
};

// Runs the request to its end. `stop` set by another thread (an interrupt) kills the child.
ChildResult run_child(const ChildRequest& request, const std::atomic<bool>& stop);

// "SIGSEGV" for 11, "signal 64" for a number without a name.
std::string signal_name(int signal);

}  // namespace mmaemu
