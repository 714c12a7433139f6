// One rate of a T6 run, whatever section measured it: what the verdict table counts and the baseline
// comparison matches by key across runs.
#pragma once
#include <optional>
#include <string>

#include "bench/sample_stats.hpp"

namespace mmaemu::t6 {

struct RateRow {
  std::string section;  // "reference", "harness", "gemm"
  std::string key;      // unique in a run, stable across runs and machines: "gemm/fp16/tiled/4096x4096x4096"
  std::string label;    // for people: "gemm fp16 tiled 4096x4096x4096"
  std::string unit;     // "dot-product-adds/s", "cases/s", "TMAC/s"
  std::string status;   // "measured", "skipped", "declined", "error"
  std::string reason;
  std::optional<bench::SampleStats> rate;  // measured rows: median and spread of the samples
};

}  // namespace mmaemu::t6
