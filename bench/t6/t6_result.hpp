// What a T6 run found: each section's own rows, the rates in one list (for the table and the
// baseline), the comparison with a baseline, and the run's provenance.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "bench/t6/baseline.hpp"
#include "bench/cpu/dot_bench.hpp"
#include "bench/cpu/harness_rate.hpp"
#include "bench/cpu/library_bench.hpp"
#include "bench/cpu/mmasim_bench.hpp"
#include "bench/cpu/model_bench.hpp"
#include "bench/cpu/process_bench.hpp"
#include "bench/t6/gemm_section.hpp"
#include "bench/t6/rate_row.hpp"
#include "bench/t6/t6_targets.hpp"

namespace mmaemu::t6 {

struct T6Result {
  std::string tier, tier_file, command;
  RunReport provenance;  // commit, start, host, compiler, OS (no suites)
  int hardware_threads = 1;
  std::optional<bench::DotBenchResult> reference;
  std::optional<std::vector<bench::HarnessRow>> harness;
  std::optional<GemmSectionResult> gemm;
  std::optional<std::vector<bench::MmasimRow>> mmasim;
  std::optional<std::vector<bench::ProcessRow>> process;
  std::optional<std::vector<bench::ModelRow>> model;
  std::optional<std::vector<bench::LibraryRow>> library;
  std::vector<RateRow> rows;
  std::optional<BaselineResult> baseline;
  T6Targets targets;  // the tier file's, shown beside what was measured

  size_t errors() const;    // rows in error
  size_t measured() const;  // rows with a rate
};

// The rows of each section as RateRows.
std::vector<RateRow> reference_rows(const bench::DotBenchResult& r);
std::vector<RateRow> harness_rows(const std::vector<bench::HarnessRow>& rows);
std::vector<RateRow> gemm_rows(const GemmSectionResult& g);
std::vector<RateRow> mmasim_rows(const std::vector<bench::MmasimRow>& rows);
std::vector<RateRow> process_rows(const std::vector<bench::ProcessRow>& rows);
std::vector<RateRow> model_rows(const std::vector<bench::ModelRow>& rows);
std::vector<RateRow> library_rows(const std::vector<bench::LibraryRow>& rows);

}  // namespace mmaemu::t6
