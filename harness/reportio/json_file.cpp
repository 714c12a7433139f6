#include "harness/reportio/json_file.hpp"

#include <fstream>
#include <sstream>

#include "harness/core/errors.hpp"

namespace mmaemu::reportio {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path.string(), "cannot read");
  return text.str();
}

nlohmann::json parse_json(const std::string& text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("not JSON: ") + e.what());
  }
}

}  // namespace mmaemu::reportio
