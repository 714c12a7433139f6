// The campaign's journal: one JSON line per finished mutant, written as soon as the mutant is judged,
// so that an interrupted campaign resumes (--resume) from where it stopped. The whole journal is
// rewritten atomically (core/atomic_file.hpp) at every line: an append cut short would leave a torn
// line that the next append glues to, losing that one too, and readers would see a file that does
// not parse. A campaign has at most a few hundred lines, so the rewrite costs nothing that shows.
// Each line carries a digest of the catalogue entry and of the test list it was judged with; a line
// whose digests differ from the current ones is stale and is run again.
#pragma once
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::mutate {

class Journal {
 public:
  // Reads the whole lines of `path` (when it exists and `fresh` is false), or writes it empty (`fresh`:
  // a run without --resume). Throws InputError naming the file when it cannot be written.
  Journal(std::filesystem::path path, bool fresh);

  // Results of earlier runs whose entry and test list match, by mutant id. Unreadable lines (a line
  // cut short by an interruption) are skipped.
  std::map<int, MutantResult> finished(const std::map<int, std::string>& entry_digests,
                                       const std::string& tests_digest) const;

  // Appends one result. Thread-safe.
  void append(const MutantResult& result, const std::string& entry_digest, const std::string& tests_digest);

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::mutex mutex_;
  std::string text_;  // the whole lines on disk
};

}  // namespace mmaemu::mutate
