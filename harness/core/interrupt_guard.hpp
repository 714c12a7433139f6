// SIGINT and SIGTERM turned into a flag, for the runs that must stop cleanly (`mmaemu run`, `mutate`,
// `bench`, `record`, `signoff`): they stop their work, kill their running children, keep what
// finished (reports are rewritten atomically after every finished unit) and say how to resume.
//
// A second signal while stopping is the way out of work that does not look at the flag: it removes
// the temporary files of writes in flight (core/atomic_file.hpp) and the process groups of running
// children, then exits at once with the same status. Either way no report is left half-written.
#pragma once
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>

namespace mmaemu {

// The process's one interrupt flag: set by SIGINT / SIGTERM while an InterruptGuard lives.
std::atomic<bool>& interrupt_flag();

// The signal that set the flag (SIGINT, SIGTERM), 0 while it is clear.
int interrupt_signal();

// The exit status of every command that stopped on a signal: 128 + the signal (130 for SIGINT, 143
// for SIGTERM), what a shell reports for a program the signal killed, so that scripts tell an
// interrupted run from a failed check (1) or unusable input (2). The one place that decides it.
int interrupted_exit_status();

// "SIGINT", "SIGTERM" (for messages).
const char* interrupt_signal_name();

// Clears the flag and installs the handlers for its lifetime; restores the old ones after, unless a
// signal came (the command is then on its way out and a second signal must still stop it at once). Guards
// nest (a mutation tier run inside `mmaemu run` has its own): only the outermost one installs and
// clears, so a signal that came before an inner guard is not forgotten.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  bool outermost_ = false;
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// What a stop at once has to undo, registered by the code that makes it: a temporary file that a
// rename has not yet put in place, the process group of a running child. Both are fixed-size tables
// read from the signal handler (async-signal-safe); a registration that finds no free slot is
// skipped, which only means that this one thing is not cleaned up by a stop at once.
int register_pending_file(const char* path);  // the slot, -1 when none was free
void unregister_pending_file(int slot);
void register_child_group(pid_t group);
void unregister_child_group(pid_t group);

// Runs `work` on a thread of its own, so that a signal is answered at once however long the work
// takes (an in-process suite or benchmark never looks at the flag). `finished`: it ended, and no
// signal came before. `interrupted`: a signal came first; `work` was given `wait_for_stop` to end
// (what looks at the flag, such as a campaign killing its children, ends within it) and did.
// `left_running`: it did not; the caller writes what finished, then must call exit_now before
// anything `work` refers to goes out of scope. What `work` did when a signal came first is not to be
// kept: it may be partial.
enum class WorkEnd { finished, interrupted, left_running };
WorkEnd run_until_interrupted(std::function<void()> work, std::chrono::seconds wait_for_stop);

// Whether some run_until_interrupted in this process left its work running (maybe deep inside
// another command's unit: a throughput tier inside `mmaemu run`): the process must then end through
// exit_now, never by returning from main (static destructors would run under the running work).
bool work_left_running();

// Stop at once: removes the pending temporary files, kills the registered child groups, flushes
// nothing that is not already written, and _exits with `status`. For a command whose work cannot be
// stopped in between (an in-process suite still running after its grace period).
[[noreturn]] void exit_now(int status);

}  // namespace mmaemu
