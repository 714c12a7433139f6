// The campaign's journal: one JSON line per finished mutant, appended (and flushed to disk) as soon
// as the mutant is judged, so that an interrupted campaign resumes (--resume) from where it stopped.
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
  // Opens `path` for appending; `fresh`: empties it first (a run without --resume).
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
};

}  // namespace mmaemu::mutate
