// Known mismatches: groups a suite reports that the reference cannot match yet. Any suite may list
// them, each with its reason:
//   known_mismatches:
//     - group: H200/E4M3/fp16-out
//       reason: "mma.sync FP8 with fp16 accumulation on Hopper matches no model yet"
// Their mismatches do not fail the suite, but they stay in every report. The list is strict, so that
// it stays honest: a known group that no longer differs, or that the suite does not report at all,
// fails the suite.
#pragma once
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/tiers/suite_spec.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu {

// Reads the `known_mismatches` value of a suite in `file` (a checked sequence). Throws InputError at
// "file:line:column" for an entry that is not a mapping, has an unknown key, lacks `group` or
// `reason`, or names a group twice.
std::vector<KnownMismatch> read_known_mismatches(const SchemaValue& list, const std::string& file);

// Applies the suite's known mismatches to its result: marks the known groups (GroupCount::known_reason)
// and their kept mismatches, counts known_mismatched, and settles the verdict. A suite that failed only
// because of mismatches in known groups passes; a known group without mismatches, or one the suite did
// not report, fails it. Skipped suites and suites that ended in error keep their verdict.
void apply_known_mismatches(SuiteResult& result, const SuiteSpec& spec);

}  // namespace mmaemu
