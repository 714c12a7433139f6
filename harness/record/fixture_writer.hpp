// Writes a fixture set (see fixtures/README or the manifest schema mmaemu-fixtures/1):
//   <dir>/manifest.yaml, README.md, record.log, and <dir>/<instr>/{a,b,c,d}.npy
// Every file is written atomically; the manifest carries the SHA-256 of each .npy.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/record/provenance.hpp"
#include "harness/record/recording.hpp"

namespace mmaemu::record {

struct FixtureSet {
  std::string name;  // "h200": the directory's name
  std::string arch;  // "sm90": the profile the recordings belong to
  Provenance provenance;
  std::vector<InstructionRecording> recordings;  // d filled
  std::vector<std::string> summaries;            // one line per recording (output classes, NaN patterns)
  std::string checks;                            // what the self-checks verified, for the README
  std::string log_text;                          // becomes record.log
};

void write_fixture_set(const std::filesystem::path& dir, const FixtureSet& set);

// The manifest and README texts alone (tested without writing).
std::string manifest_yaml(const FixtureSet& set, const std::vector<std::vector<std::string>>& sha256_abcd);
std::string readme_markdown(const FixtureSet& set);

}  // namespace mmaemu::record
