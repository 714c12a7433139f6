// JUnit XML report, for CI: one <testsuite> per tier, one <testcase> per suite (classname = tier),
// <failure> with the first mismatches, <skipped> and <error> with their reasons.
#pragma once
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::report_junit {

std::string render(const RunReport& run);

// Escapes text for an XML attribute or element; drops control characters XML 1.0 cannot carry.
std::string xml_escape(const std::string& s);

}  // namespace mmaemu::report_junit
