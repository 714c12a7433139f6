#include "fuzz/fuzz_support.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace mmaemu::fuzz {
namespace {

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "mmaemu-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("fuzz: cannot create a scratch directory under " + base.string());
    dir = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

const std::filesystem::path& scratch_dir() {
  static const Scratch scratch;
  return scratch.dir;
}

std::filesystem::path write_input(const std::string& relative, std::string_view bytes) {
  const std::filesystem::path path = scratch_dir() / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("fuzz: cannot write " + path.string());
  return path;
}

std::filesystem::path write_input(const std::string& relative, const uint8_t* data, size_t size) {
  return write_input(relative, as_text(data, size));
}

void clear_scratch() {
  for (const auto& entry : std::filesystem::directory_iterator(scratch_dir())) std::filesystem::remove_all(entry.path());
}

std::vector<std::string> split_words(std::string_view text, size_t max_words) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      in_word = true;
      continue;
    }
    if (!quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      if (words.size() == max_words) return words;
      continue;
    }
    word += c;
    in_word = true;
  }
  if (in_word && words.size() < max_words) words.push_back(std::move(word));
  return words;
}

}  // namespace mmaemu::fuzz
