// Reading a report file: its text, or its JSON, with every failure an InputError naming the file
// (exit 2), never a bare parser message.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace mmaemu::reportio {

std::string read_text_file(const std::filesystem::path& path);

// Throws InputError naming `source` when `text` is not JSON.
nlohmann::json parse_json(const std::string& text, const std::string& source);

inline nlohmann::json read_json_file(const std::filesystem::path& path) {
  return parse_json(read_text_file(path), path.string());
}

}  // namespace mmaemu::reportio
