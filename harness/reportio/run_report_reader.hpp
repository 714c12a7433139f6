// Run reports read back: the inverse of report_json::render (schema "mmaemu-report/1"), so that
// reports written on several machines can be merged and compared.
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::reportio {

inline constexpr const char* kRunReportSchema = "mmaemu-report/1";

// Every field render writes comes back: report_json::render(run_report_from_json(render(x))) ==
// render(x). The summary is not read (render derives it from the suites). Fields added to the
// schema later (known_mismatched, position, known_reason, known, shard, state, planned, inputs_sha256)
// take their defaults when absent, so reports written before them still read. Throws InputError naming `source` for a
// document that is not a run report: not JSON, a wrong or missing schema, a missing or mistyped field.
RunReport run_report_from_json(const std::string& text, const std::string& source);

}  // namespace mmaemu::reportio
