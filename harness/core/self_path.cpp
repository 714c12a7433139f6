#include "harness/core/self_path.hpp"

#include <unistd.h>

#include <climits>

namespace mmaemu {

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "mmaemu";
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace mmaemu
