// `mmaemu merge`: the reports of a sharded run, one directory per shard, merged into one directory
// as one machine would have written it.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmaemu::reportio {

enum class DocumentKind { run_report, kill_matrix, other };

// A run report has the schema "mmaemu-report/1"; a kill matrix has "mutants" and "tier".
DocumentKind classify(const nlohmann::json& doc);

struct MergedFile {
  std::string file;      // "T2.json"
  DocumentKind kind = DocumentKind::other;
  unsigned shards = 0;
  size_t units = 0;      // suites or mutants
  std::string verdicts;  // "3 pass, 1 skip" or "score 69/69 = 100.0%"
};

// Finds the run reports and kill matrices at the top of every shard directory (below it lie a
// campaign's logs and its tests' scratch reports, which are not shards), groups them by file name,
// merges each group (merge.hpp) and writes the merged ones to `out` with the writers the runs use:
// JSON, JUnit and Markdown for a run report, JSON and Markdown for a kill matrix. Every group is read
// and merged before anything is written, so a failure leaves `out` as it was. Throws InputError
// naming the file or directory: a directory that does not exist, a sharded file missing from a shard
// directory (an unsharded one found in a single shard is a whole unit that shard ran, taken as it is), a file that is not JSON, shards that do not belong together; `out` being one of the
// shard directories.
std::vector<MergedFile> merge_directories(const std::vector<std::filesystem::path>& shard_dirs,
                                          const std::filesystem::path& out);

// The short table `mmaemu merge` prints: file, shards, suites or mutants, verdicts.
std::string merge_table(const std::vector<MergedFile>& files);

}  // namespace mmaemu::reportio
