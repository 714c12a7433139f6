// A fresh directory under the system's temp directory, removed with everything in it when it goes:
// what a sign-off's outside programs and T5's reader properties write into.
#pragma once
#include <filesystem>
#include <string>

namespace mmaemu {

class ScratchDir {
 public:
  // `prefix` names the directory ("mmaemu-signoff" -> /tmp/mmaemu-signoff-XXXXXX).
  explicit ScratchDir(const std::string& prefix = "mmaemu");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace mmaemu
