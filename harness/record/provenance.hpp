// Provenance of a recording: where, when, on what and with what it was made. All values are strings,
// in the order the manifest lists them.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "harness/core/host_info.hpp"

namespace mmaemu::record {

using mmaemu::host_compiler;
using mmaemu::host_name;
using mmaemu::utc_now_iso8601;

struct Provenance {
  std::vector<std::pair<std::string, std::string>> fields;

  void set(const std::string& key, const std::string& value);
  std::string get(const std::string& key) const;  // "" when absent
};

// The host-side fact only the recorder knows (no CUDA needed).
std::string build_commit();     // the git commit the recorder was configured at, or "unknown"

// Everything, including the GPU, driver, CUDA runtime and cuBLASLt (defined with the CUDA parts).
Provenance collect_provenance(int device, const std::string& command, const std::string& commit);

}  // namespace mmaemu::record
