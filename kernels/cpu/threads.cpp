#include "kernels/cpu/threads.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace mmaemu::kernels::cpu {
namespace {
std::atomic<int> g_threads{0};
}  // namespace

int threads() {
  if (const int n = g_threads.load(); n > 0) return n;
  if (const char* env = std::getenv("MMAEMU_THREADS"); env && *env) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > 4096)
      throw std::runtime_error(std::string("MMAEMU_THREADS=") + env + ": not a number of threads (1 .. 4096)");
    return static_cast<int>(n);
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void set_threads(int n) { g_threads.store(std::max(n, 0)); }

void parallel_for(size_t items, const std::function<void(size_t)>& work, double macs) {
  constexpr double kWorthAThread = 1 << 20;
  const size_t workers = macs > 0 && macs < kWorthAThread ? 1 : std::min<size_t>(static_cast<size_t>(threads()), items);
  if (workers <= 1) {
    for (size_t i = 0; i < items; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto loop = [&] {
    for (size_t i; (i = next.fetch_add(1)) < items;) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next.store(items);  // the others stop at their next item
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(loop);
  loop();
  for (std::thread& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace mmaemu::kernels::cpu
