// What a comparison of reports leaves out: the fields that differ between two runs of the same
// build on the same inputs (timings, dates), between machines (hosts, paths) or between releases by
// design (commits). The list is kept here and only here; `mmaemu compare --json` writes it out.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmaemu::reportio {

struct DropRule {
  enum class Match { exact, prefix, suffix };
  const char* parent;  // the key of the object the dropped key sits in ("" anywhere); array elements
                       // sit in the array's key ("suites", "mutants")
  Match match;
  const char* key;     // with `match`, which keys; prefix "" is every key
  bool only_paths;     // dropped only when the value is a string that reads as a path
  const char* why;
};

const std::vector<DropRule>& drop_rules();

// True when `key`, holding `value` in an object under `parent`, is left out of comparisons.
bool is_dropped(const std::string& parent, const std::string& key, const nlohmann::json& value);

// A string that reads as a file system path: starts with "/", "~", "./" or "../", or holds a "/"
// and no white space ("fixtures/h200"; not "nvcc 13.0 / g++ 12.2").
bool looks_like_path(const std::string& s);

// `doc` without its dropped keys, at every depth.
nlohmann::json normalise(const nlohmann::json& doc);

// The rules as JSON ([{"key": "*_seconds", "where": "anywhere", "why": ...}]), for the comparison's
// own report.
nlohmann::json drop_rules_json();

}  // namespace mmaemu::reportio
