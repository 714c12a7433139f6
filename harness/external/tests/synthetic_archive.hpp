// Writes small .tar.xz archives for the tests, shaped like the Khattak & Mikaitis recordings.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace mmaemu::external::testing {

using Members = std::vector<std::pair<std::string, std::string>>;  // path inside, contents

void write_tar_xz(const std::filesystem::path& path, const Members& members);

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The 32-character binary spelling the archive uses for c and d.
std::string binary32(uint32_t bits);

// Two V100 fp16 dot products (K = 4) whose results are exact in every model: 1*1*4 + 1 = 5 and
// 0.5*2*4 + 0 = 4, with both result files (d_V100_fp32.txt, d_V100_fp16.txt), under "km/".
Members v100_members();

// `m` with member `name` replaced by (or added with) `text`, and without member `name`.
Members with(Members m, const std::string& name, const std::string& text);
Members without(Members m, const std::string& name);

}  // namespace mmaemu::external::testing
