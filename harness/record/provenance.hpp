// Provenance of a recording: where, when, on what and with what it was made. All values are strings,
// in the order the manifest lists them.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mmaemu::record {

struct Provenance {
  std::vector<std::pair<std::string, std::string>> fields;

  void set(const std::string& key, const std::string& value);
  std::string get(const std::string& key) const;  // "" when absent
};

// Host-side facts (no CUDA needed).
std::string utc_now_iso8601();  // "2026-11-30T22:40:00Z"
std::string host_name();
std::string host_compiler();    // "g++ 12.2.0"
std::string build_commit();     // the git commit the recorder was configured at, or "unknown"

// Everything, including the GPU, driver, CUDA runtime and cuBLASLt (defined with the CUDA parts).
Provenance collect_provenance(int device, const std::string& command, const std::string& commit);

}  // namespace mmaemu::record
