// One suite of a tier file, as loaded and checked: the keys every suite has, plus the values of the
// keys its kind declares.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/yaml_schema.hpp"

namespace mmaemu {

// A group the suite reports that the reference cannot match yet, listed in the tier file with the
// reason, so that it neither turns CI red nor goes unseen (known_mismatches.hpp).
struct KnownMismatch {
  std::string group;   // exactly as the suite names it: "H200/E4M3/fp16-out"
  std::string reason;  // why, for the reports
  std::string where;   // "file:line:column" of the entry
};

struct SuiteSpec {
  std::string tier;                  // "T2"
  std::string name;                  // "h200-fixtures"
  std::string kind;                  // "fixture-replay"
  std::vector<std::string> labels;   // defaults to {tier}
  bool optional = false;             // absent inputs: skip with the reason instead of an error
  bool in_quick_form = true;         // `quick: false`: a long suite that --quick (the main job) leaves out,
                                     // because a quick suite covers the same ground
  std::vector<KnownMismatch> known_mismatches;
  std::filesystem::path tier_file;
  std::string where;                 // "file:line:column" of the suite's entry
  std::filesystem::path report_dir;  // the run's report directory (set by the runner): where a suite
                                     // writes files of its own (T5's counterexamples)
  bool progress = false;             // a long suite may show its progress on stderr (a terminal, not --quiet)
  SchemaValues values;               // the kind's own keys, as given

  std::string id() const { return tier + "." + name; }  // "T2.h200-fixtures"

  bool has(const std::string& key) const { return values.count(key) != 0; }
  // Typed access to the kind's keys. The forms without a fallback are for required keys: an absent
  // key is a bug in the kind, and throws std::logic_error.
  const std::string& text(const std::string& key) const;
  std::string text(const std::string& key, const std::string& fallback) const;
  const std::filesystem::path& path(const std::string& key) const;
  bool flag(const std::string& key, bool fallback) const;
  uint64_t number(const std::string& key, uint64_t fallback) const;
  const std::vector<std::string>& list(const std::string& key) const;

  // Inputs (file / directory keys) that are absent, in key order.
  std::vector<const SchemaValue*> missing_inputs() const;
};

}  // namespace mmaemu
