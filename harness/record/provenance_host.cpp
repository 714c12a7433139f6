// The host half of the provenance: clock, host name, compiler, commit.
#include "harness/record/provenance.hpp"

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

std::string build_commit() { return MMAEMU_RECORD_GIT_COMMIT; }

}  // namespace mmaemu::record
