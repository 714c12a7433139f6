#include "bench/t6/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace mmaemu::t6 {

Progress::Progress(bool quiet) : on_(!quiet && ::isatty(STDERR_FILENO)) {}

void Progress::update(const std::string& section, size_t done, size_t total, const std::string& what) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (section != section_) {
    finish();
    section_ = section;
    start_ = now;
  }
  const double s = std::chrono::duration<double>(now - start_).count();
  const double rate = s > 0 ? static_cast<double>(done) / s : 0;
  char buf[160];
  if (done > 0 && total >= done && rate > 0)
    std::snprintf(buf, sizeof buf, "[%s] %zu/%zu, %.2f/s, about %.0f s left: ", section.c_str(), done, total, rate,
                  static_cast<double>(total - done) / rate);
  else
    std::snprintf(buf, sizeof buf, "[%s] %zu/%zu: ", section.c_str(), done, total);
  std::string line = buf + what;
  if (line.size() > 110) line = line.substr(0, 110);
  std::cerr << "\r\033[K" << line << std::flush;
  open_ = true;
}

void Progress::finish() {
  if (on_ && open_) std::cerr << "\n";
  open_ = false;
}

}  // namespace mmaemu::t6
