#include "harness/cli/self_path.hpp"

#include <filesystem>

#ifndef MMAEMU_BUILD_DIR
#define MMAEMU_BUILD_DIR "."
#endif

namespace mmaemu::cli {

std::string build_dir() {
  // A build carried to another machine (an H200 without a compiler) sits at another path than the
  // one it was configured at: there, the build is the folder this program lies in, three levels up
  // (<build>/harness/cli/mmaemu).
  namespace fs = std::filesystem;
  if (fs::is_directory(MMAEMU_BUILD_DIR)) return MMAEMU_BUILD_DIR;
  return fs::path(self_path()).parent_path().parent_path().parent_path().string();
}

}  // namespace mmaemu::cli
