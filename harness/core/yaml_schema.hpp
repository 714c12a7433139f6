// Schema checks of YAML inputs (tier files, fixture manifests). A schema is a table of keys with their
// types; checking a mapping against it rejects unknown keys, values of the wrong type and missing
// required keys with an InputError at "file:line:column" (1-based), so that a typo in a tier file is
// reported where it is, before anything runs.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mmaemu {

enum class ValueType {
  string,       // any scalar
  boolean,      // true / false
  integer,      // a whole number >= 0
  string_list,  // a sequence of scalars
  file,         // a path to a file, relative to the YAML file's directory
  directory,    // a path to a directory, relative to the YAML file's directory
  mapping,      // a nested mapping, checked by the caller against its own schema
  sequence,     // a nested sequence, checked by the caller
  mapping_or_sequence,  // one nested mapping or a list of them, checked by the caller
};

struct KeySpec {
  std::string name;
  ValueType type = ValueType::string;
  bool required = false;
  // file / directory: what the path holds, for "<what> not found at <path>" ("third-party recordings").
  std::string what;
  // directory: an entry the directory must hold to count as present ("manifest.yaml").
  std::string must_contain;
  // string: the values allowed (empty: any).
  std::vector<std::string> choices;

  // Refinements, so that a schema reads as a table: required_key("fixtures", ValueType::directory)
  //   .described_as("fixture set").containing("manifest.yaml")
  KeySpec described_as(std::string what_it_holds) const;
  KeySpec containing(std::string entry) const;
  KeySpec one_of(std::vector<std::string> allowed) const;
};
using Schema = std::vector<KeySpec>;

KeySpec required_key(std::string name, ValueType type);
KeySpec optional_key(std::string name, ValueType type);

// One checked value. `where` is the value's "file:line:column", for errors found later.
struct SchemaValue {
  ValueType type = ValueType::string;
  std::string where;
  std::string text;                   // string (and the path as written, for file / directory)
  bool flag = false;                  // boolean
  uint64_t number = 0;                // integer
  std::vector<std::string> list;      // string_list
  std::filesystem::path path;         // file / directory: resolved against the YAML file's directory
  bool exists = true;                 // file / directory: whether it is there (must_contain included)
  std::string missing_reason;         // file / directory, when absent: "<what> not found at <path>"
  YAML::Node node;                    // mapping / sequence: the node itself
};
using SchemaValues = std::map<std::string, SchemaValue>;

// "file:line:column", 1-based, or just "file" when the node has no position.
std::string where(const std::string& file, const YAML::Node& node);
std::string where(const std::string& file, const YAML::Mark& mark);

// Reads and parses a YAML file. Throws InputError naming the file when it cannot be read, and at
// "file:line:column" when it is not valid YAML or is not a mapping at the top.
YAML::Node load_yaml_file(const std::filesystem::path& path);

// Checks `node` (a mapping) against `schema`. `context` names it in messages ("suite", "tier file").
// Relative paths are resolved against `base_dir`; their existence is recorded, not enforced (the
// caller decides whether a missing input is an error or a skip; see require_present).
SchemaValues check_mapping(const YAML::Node& node, const std::string& file, const Schema& schema,
                           const std::string& context, const std::filesystem::path& base_dir);

// Throws InputError at the value's position when a file / directory value is absent.
void require_present(const SchemaValue& v);

}  // namespace mmaemu
