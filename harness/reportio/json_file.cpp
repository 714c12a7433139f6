#include "harness/reportio/json_file.hpp"

#include <fstream>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu::reportio {

std::string read_text_file(const std::filesystem::path& path) {
  return read_input_file(path, "the file");
}

nlohmann::json parse_json(const std::string& text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("not JSON: ") + e.what());
  }
}

}  // namespace mmaemu::reportio
