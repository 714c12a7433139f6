// The benchmark's two outputs: JSON for machines (every sample, the statistics, the floors and the
// provenance) and a short Markdown table for people.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "bench/gemm_bench.hpp"

namespace mmaemu::bench {

inline constexpr const char* kGemmBenchSchema = "mmaemu-bench-gemm/1";

nlohmann::json gemm_report_json(const GemmBenchResult& result, const GemmBenchOptions& options);
std::string gemm_report_markdown(const GemmBenchResult& result);

}  // namespace mmaemu::bench
