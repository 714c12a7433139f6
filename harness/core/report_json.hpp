// JSON report, for machines. Schema "mmaemu-report/1":
//   {schema, tool_version, commit, started_utc, host, environment{}, tier_files[],
//    summary{pass, fail, skip, error}, suites[{tier, suite, labels[], verdict, reason, compared,
//    mismatched, seconds, groups{name: {compared, mismatched}},
//    first_mismatches[{group, case, inputs, expected, got}]}]}
#pragma once
#include <string>

#include "result.hpp"

namespace mmaemu::report_json {

std::string render(const RunReport& run);

}  // namespace mmaemu::report_json
