// JSON report, for machines. Schema "mmaemu-report/1":
//   {schema, tool_version, commit, started_utc, host, environment{}, tier_files[], shard{index, count}
//    (only when sharded), summary{pass, fail, skip, error}, suites[{tier, suite, labels[], verdict,
//    reason, compared, mismatched, known_mismatched, seconds, position, groups{name: {compared,
//    mismatched, known_reason}},
//    first_mismatches[{group, case, inputs, expected, got}]}]}
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::report_json {

std::string render(const RunReport& run);

}  // namespace mmaemu::report_json
