// The outputs of `mmaemu bench`: JSON for machines (every sample, the statistics, the provenance),
// a Markdown report for people, the short verdict table printed on stdout, and the plot of TMAC/s
// against problem size per backend with the native line.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "bench/t6/svg_plot.hpp"
#include "bench/t6/t6_result.hpp"

namespace mmaemu::t6 {

inline constexpr const char* kT6Schema = "mmaemu-bench-t6/1";

// The targets shown beside the measurements are the tier file's (`targets:`, bench/t6/t6_targets.hpp).

nlohmann::json t6_report_json(const T6Result& r);
std::string t6_report_markdown(const T6Result& r);
std::string t6_verdict_table(const T6Result& r);
// The tier file's GPU targets beside what the run measured (a Markdown table); empty without GPU rows.
std::string gpu_targets_markdown(const T6Result& r);

// One panel per format: a line per backend over the square shapes, markers for the other shapes,
// cuBLASLt dashed.
Plot gemm_plot(const GemmSectionResult& g);

}  // namespace mmaemu::t6
