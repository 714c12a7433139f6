// The recorder's checks on itself, run before anything is written:
//   - every output was written (D is poisoned before each launch) and two runs agree bit for bit;
//   - the small_int tiles equal exact arithmetic, which they must whatever the hardware's alignment,
//     truncation or rounding: a difference means a fragment layout is wrong.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harness/record/recording.hpp"

namespace mmaemu::record {

struct CheckResult {
  size_t checked = 0;
  size_t failures = 0;
  std::vector<std::string> first;  // the first few failures, one line each

  bool ok() const { return failures == 0; }
};

// The poison pattern for a D element `bytes` wide, built from one repeated byte.
uint64_t poison_pattern(uint8_t byte, int bytes);

// d1 and d2 come from two launches with D poisoned with poison1 and poison2 beforehand.
CheckResult check_runs_agree(const InstructionRecording& r, const std::vector<uint32_t>& d1, uint64_t poison1,
                             const std::vector<uint32_t>& d2, uint64_t poison2);

// The small_int tiles of r (r.d filled): D must equal C + sum A*B computed exactly (+0 == -0).
CheckResult check_exact_tiles(const InstructionRecording& r);

}  // namespace mmaemu::record
