// Facts about the machine and the build that every report and recording carries.
#pragma once
#include <string>

namespace mmaemu {

std::string host_name();         // gethostname(), or "unknown"
std::string host_compiler();     // "g++ 12.2.0", "clang 14.0.6"
std::string operating_system();  // "Linux 6.1.0 x86_64"
std::string utc_now_iso8601();   // "2026-11-30T22:27:00Z"

}  // namespace mmaemu
