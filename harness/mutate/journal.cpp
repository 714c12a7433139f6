#include "harness/mutate/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mmaemu::mutate {

Journal::Journal(std::filesystem::path path, bool fresh) : path_(std::move(path)) {
  std::filesystem::create_directories(path_.parent_path().empty() ? "." : path_.parent_path());
  std::ofstream out(path_, fresh ? std::ios::trunc : std::ios::app);
  if (!out) throw std::runtime_error("cannot open journal " + path_.string());
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
  // One write of a whole line with O_APPEND, then fsync: a crash leaves whole lines and at most one
  // partial last line, which finished() skips.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot append to journal " + path_.string() + ": " + std::strerror(errno));
  const ssize_t n = ::write(fd, line.data(), line.size());
  ::fsync(fd);
  ::close(fd);
  if (n != static_cast<ssize_t>(line.size())) throw std::runtime_error("cannot append to journal " + path_.string());
}

}  // namespace mmaemu::mutate
