#include "harness/core/scratch_dir.hpp"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

namespace mmaemu {

namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string tmpl = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary directory under " + tmpl);
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace mmaemu
