// What the recorded D values look like: how many outputs of each class, and which NaN patterns the
// hardware produced (canonical NaN or propagated payloads). For the log and the set's README.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "harness/record/recording.hpp"

namespace mmaemu::record {

struct OutputSummary {
  size_t zero = 0, subnormal = 0, normal = 0, inf = 0, nan = 0;
  std::map<uint64_t, size_t> nan_patterns;     // D bit pattern -> count
  size_t nan_in_nan_free_outputs = 0;          // NaN outputs whose inputs held no NaN (inf*0, inf-inf)
};

OutputSummary summarize_outputs(const InstructionRecording& r);

// "zero 12, subnormal 3, normal 50000, inf 20, nan 811 (0x7FFFFFFF x811)"
std::string describe(const OutputSummary& s, int bytes);

}  // namespace mmaemu::record
