#include "self_path.hpp"

#include <unistd.h>

#include <climits>
#include <filesystem>

#ifndef MMAEMU_BUILD_DIR
#define MMAEMU_BUILD_DIR "."
#endif

namespace mmaemu::cli {

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "mmaemu";
  return std::string(buf, static_cast<size_t>(n));
}

std::string build_dir() {
  // A build carried to another machine (an H200 without a compiler) sits at another path than the
  // one it was configured at: there, the build is the folder this program lies in, three levels up
  // (<build>/harness/cli/mmaemu).
  namespace fs = std::filesystem;
  if (fs::is_directory(MMAEMU_BUILD_DIR)) return MMAEMU_BUILD_DIR;
  return fs::path(self_path()).parent_path().parent_path().parent_path().string();
}

}  // namespace mmaemu::cli
