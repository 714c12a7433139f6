// SIGINT and SIGTERM turned into a flag, for the long runs that must stop cleanly (a mutation
// campaign, a sign-off): they kill their running children, keep what finished and say how to resume.
#pragma once
#include <atomic>
#include <csignal>

namespace mmaemu {

// The process's one interrupt flag: set by SIGINT / SIGTERM while an InterruptGuard lives.
std::atomic<bool>& interrupt_flag();

// Clears the flag and installs the handlers for its lifetime; restores the old ones after.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace mmaemu
