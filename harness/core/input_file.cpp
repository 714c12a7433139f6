#include "harness/core/input_file.hpp"

#include <fstream>
#include <system_error>

#include "harness/core/errors.hpp"

namespace mmaemu {

std::string read_input_file(const std::filesystem::path& path, const std::string& what) {
  const std::string file = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(file, "cannot read " + what + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file, "cannot open " + what);
  // istream::read turns a failing read(2) into badbit instead of letting the stream buffer's
  // exception out, so every error ends here as an InputError.
  std::string bytes;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk), in.gcount() > 0) bytes.append(chunk, static_cast<size_t>(in.gcount()));
  if (in.bad()) throw InputError(file, "cannot read " + what + " to its end");
  return bytes;
}

}  // namespace mmaemu
