#include "harness/core/interrupt_guard.hpp"

#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace mmaemu {
namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_depth{0};
std::atomic<bool> g_left_running{false};

// Pending temporary files: 0 free, 1 being filled in, 2 armed (the handler may unlink `path`).
struct PendingSlot {
  std::atomic<int> state{0};
  char path[4096] = {};
};
PendingSlot g_pending[64];
std::atomic<pid_t> g_groups[128];

void say(const char* text) {
  const size_t n = std::strlen(text);
  ssize_t ignored = ::write(STDERR_FILENO, text, n);
  (void)ignored;
}

extern "C" void on_interrupt(int signal) {
  if (!interrupt_flag().exchange(true)) {
    g_signal.store(signal);
    say(signal == SIGTERM ? "mmaemu: SIGTERM: stopping; what has finished is kept (signal again to stop at once)\n"
                          : "mmaemu: SIGINT: stopping; what has finished is kept (signal again to stop at once)\n");
    return;
  }
  say("mmaemu: stopping at once\n");
  exit_now(128 + signal);
}

}  // namespace

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

int interrupt_signal() { return interrupt_flag().load() ? g_signal.load() : 0; }

int interrupted_exit_status() {
  const int s = g_signal.load();
  return 128 + (s ? s : SIGINT);
}

const char* interrupt_signal_name() { return g_signal.load() == SIGTERM ? "SIGTERM" : "SIGINT"; }

InterruptGuard::InterruptGuard() {
  outermost_ = g_depth.fetch_add(1) == 0;
  if (!outermost_) return;
  interrupt_flag().store(false);
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  // Both signals blocked while the handler runs: a second one is handled after the first, never
  // inside it.
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  g_depth.fetch_sub(1);
  if (!outermost_) return;
  // A command stopping on a signal keeps the handler to its end: a second signal while it writes its
  // last report and returns is still "stop at once" with 128 + the signal, never the default action,
  // which would kill it without its exit status.
  if (interrupt_flag().load()) return;
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

int register_pending_file(const char* path) {
  const size_t n = std::strlen(path);
  if (n >= sizeof(PendingSlot::path)) return -1;
  for (int i = 0; i < static_cast<int>(std::size(g_pending)); ++i) {
    int expected = 0;
    if (!g_pending[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_pending[i].path, path, n + 1);
    g_pending[i].state.store(2);  // armed only once the whole name is there
    return i;
  }
  return -1;
}

void unregister_pending_file(int slot) {
  if (slot >= 0) g_pending[slot].state.store(0);
}

void register_child_group(pid_t group) {
  for (auto& g : g_groups) {
    pid_t expected = 0;
    if (g.compare_exchange_strong(expected, group)) return;
  }
}

void unregister_child_group(pid_t group) {
  for (auto& g : g_groups) {
    pid_t expected = group;
    if (g.compare_exchange_strong(expected, 0)) return;
  }
}

WorkEnd run_until_interrupted(std::function<void()> work, std::chrono::seconds wait_for_stop) {
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
  };
  auto shared = std::make_shared<Shared>();
  std::thread worker([shared, work = std::move(work)] {
    work();
    std::lock_guard<std::mutex> lock(shared->m);
    shared->done = true;
    shared->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(shared->m);
  // Polled as well as notified: the signal handler cannot notify a condition variable.
  while (!shared->done && !interrupt_flag().load()) shared->cv.wait_for(lock, std::chrono::milliseconds(50));
  const bool signalled = interrupt_flag().load();
  if (signalled && !shared->done) shared->cv.wait_for(lock, wait_for_stop, [&] { return shared->done; });
  const bool done = shared->done;
  lock.unlock();
  if (!done) {
    worker.detach();
    g_left_running.store(true);
    return WorkEnd::left_running;
  }
  worker.join();
  return signalled ? WorkEnd::interrupted : WorkEnd::finished;
}

bool work_left_running() { return g_left_running.load(); }

void exit_now(int status) {
  for (auto& slot : g_pending)
    if (slot.state.load() == 2) ::unlink(slot.path);
  for (auto& g : g_groups)
    if (const pid_t group = g.load(); group > 0) ::kill(-group, SIGKILL);
  ::_exit(status);
}

}  // namespace mmaemu
