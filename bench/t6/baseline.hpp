// Comparing a T6 run with an earlier one (its JSON report), by ratio, row by row (matched by key).
//
// The rule that flags a regression, for each rate measured in both runs:
//   1. the two runs' p10-p90 bands do not overlap, the new one below: the drop is larger than the
//      noise either run measured in its own samples; and
//   2. the medians differ by more than min_drop_percent (the tier file's, 5% by default): noise
//      that neither run's samples can see (clocks, thermal state, another machine of the same kind)
//      must not be called a regression either.
// Only both together flag: a tight band alone would flag a 0.1% drift, a percentage alone would flag
// a noisy rate's ordinary scatter.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/t6/rate_row.hpp"

namespace mmaemu::t6 {

struct Comparison {
  std::string key, label, unit;
  bench::SampleStats before, now;
  double ratio = 0;  // now.median / before.median
  bool regression = false;
};

struct BaselineResult {
  std::string file;
  double min_drop_percent = 5;
  std::vector<Comparison> compared;
  std::vector<std::string> not_measured_now;  // keys measured in the baseline but not now
  size_t regressions() const;
};

bool is_regression(const bench::SampleStats& before, const bench::SampleStats& now, double min_drop_percent);

// `baseline` is a T6 JSON report; its "rows" are read back. Throws InputError naming `file` when it
// is not one.
BaselineResult compare_with_baseline(const std::vector<RateRow>& now, const nlohmann::json& baseline,
                                     const std::string& file, double min_drop_percent);

// The rows of a T6 report as the JSON holds them, and back.
nlohmann::json rows_json(const std::vector<RateRow>& rows);
std::vector<RateRow> rows_from_json(const nlohmann::json& rows);  // throws nlohmann::json::exception

nlohmann::json stats_json(const bench::SampleStats& s);
bench::SampleStats stats_from_json(const nlohmann::json& j);

}  // namespace mmaemu::t6
