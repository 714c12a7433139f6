#include "harness/mutate/journal.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/core/atomic_file.hpp"

namespace mmaemu::mutate {

Journal::Journal(std::filesystem::path path, bool fresh) : path_(std::move(path)) {
  if (!fresh) {
    std::ifstream in(path_);
    std::string line;
    // A torn last line, from a journal written before the writes were atomic, is left out.
    while (std::getline(in, line))
      if (!in.eof()) text_ += line + "\n";
  }
  write_file_atomic(path_, text_);
}

std::map<int, MutantResult> Journal::finished(const std::map<int, std::string>& entry_digests,
                                              const std::string& tests_digest) const {
  std::map<int, MutantResult> done;
  std::ifstream in(path_);
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      continue;  // cut short by an interruption
    }
    if (!j.is_object() || !j.contains("result")) continue;
    const int id = j["result"].value("id", 0);
    const auto digest = entry_digests.find(id);
    if (digest == entry_digests.end() || j.value("entry", "") != digest->second || j.value("tests", "") != tests_digest)
      continue;
    done[id] = mutant_result_from_json(j["result"].dump(), path_.string() + ":" + std::to_string(number));
  }
  return done;
}

void Journal::append(const MutantResult& result, const std::string& entry_digest, const std::string& tests_digest) {
  const nlohmann::json j = {{"entry", entry_digest},
                            {"tests", tests_digest},
                            {"result", nlohmann::json::parse(to_json_line(result))}};
  const std::string line = j.dump() + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text = text_ + line;
  write_file_atomic(path_, text);
  text_ = std::move(text);
}

}  // namespace mmaemu::mutate
