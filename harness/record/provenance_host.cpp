// The host half of the provenance: clock, host name, compiler, commit.
#include <unistd.h>

#include <ctime>

#include "provenance.hpp"

#ifndef MMAEMU_RECORD_GIT_COMMIT
#define MMAEMU_RECORD_GIT_COMMIT "unknown"
#endif

namespace mmaemu::record {

void Provenance::set(const std::string& key, const std::string& value) {
  for (auto& [k, v] : fields)
    if (k == key) {
      v = value;
      return;
    }
  fields.emplace_back(key, value);
}

std::string Provenance::get(const std::string& key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return v;
  return "";
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string host_compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string build_commit() { return MMAEMU_RECORD_GIT_COMMIT; }

}  // namespace mmaemu::record
