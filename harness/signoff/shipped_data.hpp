// Shipped data verified: every file a release ships as data (fixture sets, cuBLASLt recordings, tier
// files, the mutant catalogue and its baselines) against the sha256 a manifest names for it, each file
// named in the result. Three kinds of manifest:
//   - a fixture set's manifest.yaml (schema mmaemu-fixtures/1): the sha256 of each .npy it lists;
//   - a cuBLASLt recording's recording.json (mmaemu-cublaslt-recording/1): the sha256 of each D file;
//   - the release manifest release/shipped-data.yaml (mmaemu-shipped-data/1) for the rest, which names
//     ONCE, as globs, what is shipped: a file a glob matches that the manifest does not record (a new
//     tier file nobody recorded) fails, as does a recorded file no glob matches any more. Its
//     `manifests:` globs name the fixture manifests and recordings, so the release manifest alone
//     reaches every shipped file.
// A file missing or changed is a FAIL row, never an exception; a malformed manifest is an InputError.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/signoff/check_table.hpp"

namespace mmaemu::signoff {

inline constexpr const char* kShippedDataSchema = "mmaemu-shipped-data/1";

struct ShippedFile {
  std::string path;    // relative to the manifest's root
  std::string sha256;
  std::string where;   // "shipped-data.yaml:line:column" of the sha256
};

struct ShippedDataManifest {
  std::filesystem::path file;
  std::string root_text;                // as written ("..": relative to the manifest's folder)
  std::filesystem::path root;           // resolved
  std::vector<std::string> include;     // globs relative to root, hashed here
  std::vector<std::string> manifests;   // globs relative to root: manifests of their own files (also hashed here)
  std::vector<ShippedFile> files;
};

// InputError at file:line:column for a malformed manifest.
ShippedDataManifest read_shipped_data_manifest(const std::filesystem::path& file);

// The regular files below `root` the globs match, relative to it, sorted, each once. A glob is a
// path of segments: '*', '?' and '[...]' match within a segment (not a leading '.'), '**' any number
// of segments.
std::vector<std::string> expand_globs(const std::filesystem::path& root, const std::vector<std::string>& globs);

// Hashes everything the globs match and writes the manifest atomically: the globs are kept, the file
// list is regenerated. `header` (comment lines, each starting with '#') goes on top.
ShippedDataManifest write_shipped_data_manifest(const std::filesystem::path& file, const std::string& root_text,
                                                const std::vector<std::string>& include,
                                                const std::vector<std::string>& manifests, const std::string& header);

// Regenerates an existing manifest from its own globs, keeping its header comment: the on-purpose
// update after a tier file, a fixture set or a baseline changed.
ShippedDataManifest update_shipped_data_manifest(const std::filesystem::path& file);

struct ShippedDataSpec {
  std::vector<std::filesystem::path> manifests;  // any of the three kinds, told apart by their schema
  std::filesystem::path root;                    // paths are shown relative to it; empty: the first
                                                 // release manifest's root, else the current directory
};

struct ShippedDataResult {
  // name: the file's path; seen: its sha256 now ("missing"); expected: the manifest's; source: where
  // the manifest names it (or the manifest, for a file it should name and does not).
  std::vector<CheckRow> files;
  bool passed() const;
};

ShippedDataResult check_shipped_data(const ShippedDataSpec& spec);

// {schema: "mmaemu-shipped-data-check/1", passed, files: [{path, expected, got, status, manifest, reason}]}
nlohmann::ordered_json to_json(const ShippedDataResult& r);
// A line per manifest with its counts, then every row that did not pass.
std::string render_table(const ShippedDataResult& r);

// The plan's `data:` section:  manifests: [../fixtures/h200/manifest.yaml, ../release/shipped-data.yaml]
// (relative to the plan file; each must exist). InputError at file:line:column otherwise.
ShippedDataSpec shipped_data_spec_from_yaml(const YAML::Node& section, const std::filesystem::path& plan_file);

}  // namespace mmaemu::signoff
