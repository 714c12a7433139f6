#include "harness/core/interrupt_guard.hpp"

namespace mmaemu {
namespace {
extern "C" void on_interrupt(int) { interrupt_flag().store(true); }
}  // namespace

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

InterruptGuard::InterruptGuard() {
  interrupt_flag().store(false);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace mmaemu
