// Reports compared after normalisation (normalise.hpp): every difference that remains, with where it
// is. For a release sign-off (a release changes nothing it should not) and for showing that merged
// shards equal the unsharded run.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmaemu::reportio {

struct Difference {
  enum class Kind {
    changed,  // a value differs: before and after hold the two values
    added,    // only after has it (a key, or a file): after holds the value (null for a file)
    removed,  // only before has it: before holds the value (null for a file)
    length,   // arrays of different lengths: before and after hold the two lengths; the elements
              // both have are compared one by one, the others are not reported again
  };
  Kind kind = Kind::changed;
  std::string path;  // "steps/T2/T2.json: suites[3].mismatched"; a file alone for a file on one side
  nlohmann::json before;
  nlohmann::json after;
};

const char* kind_name(Difference::Kind k);  // "changed", "added", "removed", "length"

// Both sides normalised, then compared: objects key by key, arrays element by element. Paths are
// "suites[3].groups[\"H200/fp16\"].mismatched" ("" for the document itself).
std::vector<Difference> compare_json(const nlohmann::json& before, const nlohmann::json& after);

// Every *.json file under either directory, by its path relative to it (a file on one side only is a
// difference). JUnit .xml and Markdown .md files are renderings of the JSON, *.log files logs and
// *.jsonl files journals, *.gbench.json files Google Benchmark's timings: none is compared. A throughput
// report (T6) is compared without its measurements (normalise.hpp). Throws InputError naming a directory that does not exist
// or a file that is not JSON.
std::vector<Difference> compare_directories(const std::filesystem::path& before, const std::filesystem::path& after);

// Two files (compare_json of their JSON) or two directories (compare_directories).
std::vector<Difference> compare_paths(const std::filesystem::path& before, const std::filesystem::path& after);

}  // namespace mmaemu::reportio
