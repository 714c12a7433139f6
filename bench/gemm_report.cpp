#include "bench/gemm_report.hpp"

#include <cstdio>
#include <sstream>

namespace mmaemu::bench {
namespace {

using nlohmann::json;

json stats_json(const SampleStats& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min}, {"max", s.max}, {"p10", s.p10}, {"p90", s.p90}};
}

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json row_json(const BenchRow& r) {
  json j = {{"shape", {{"batch", r.shape.batch}, {"M", r.shape.M}, {"N", r.shape.N}, {"K", r.shape.K}}},
            {"shape_name", shape_name(r.shape)},
            {"format", std::string(ref::format_name(r.format))},
            {"backend", r.backend},
            {"native", r.native},
            {"instruction", r.instruction},
            {"status", r.status},
            {"reason", r.reason},
            {"timed_via", r.timed_via},
            {"samples_ms", r.samples_ms},
            {"wall_seconds", r.wall_seconds},
            {"operands", r.operands},
            {"ms", r.ms ? stats_json(*r.ms) : json(nullptr)},
            {"tmacs", r.tmacs ? stats_json(*r.tmacs) : json(nullptr)},
            {"native_tmacs", optional_json(r.native_tmacs)},
            {"native_fast_accum_tmacs", optional_json(r.native_fast_tmacs)},
            {"ratio", optional_json(r.ratio)},
            {"ratio_fast_accum", optional_json(r.ratio_fast)}};
  if (!r.algorithm.empty()) j["algorithm"] = r.algorithm;
  if (r.floor)
    j["floor"] = {{"min_bytes", r.floor->min_bytes},
                  {"memory_floor_ms", r.floor->memory_floor_ms},
                  {"compute_floor_ms", optional_json(r.floor->compute_floor_ms)},
                  {"lane_ops_per_mac", r.floor->lane_ops_per_mac},
                  {"bound", r.floor->bound},
                  {"summary", r.floor->summary}};
  else
    j["floor"] = nullptr;
  return j;
}

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Table cells must not break the row.
std::string cell(std::string s) {
  for (auto& ch : s)
    if (ch == '|' || ch == '\n') ch = ' ';
  return s;
}

}  // namespace

json gemm_report_json(const GemmBenchResult& result, const GemmBenchOptions& o) {
  json prov = json::object();
  for (const auto& [k, v] : result.provenance) prov[k] = v;
  json formats = json::array(), shapes = json::array();
  for (auto f : o.formats) formats.push_back(std::string(ref::format_name(f)));
  for (const auto& s : o.shapes) shapes.push_back(shape_name(s));
  json rows = json::array();
  for (const auto& r : result.rows) rows.push_back(row_json(r));
  const auto& c = result.ceilings;
  json tensor = json::object();
  for (auto f : o.formats)
    tensor[std::string(ref::format_name(f))] = optional_json(tensor_macs_per_s(c, f));
  return {{"schema", kGemmBenchSchema},
          {"provenance", prov},
          {"interrupted", result.interrupted},
          {"device", {{"index", result.device.index},
                      {"name", result.device.name},
                      {"compute_capability", std::to_string(result.device.cc_major) + "." +
                                                 std::to_string(result.device.cc_minor)},
                      {"sm_count", result.device.sm_count},
                      {"l2_bytes", result.device.l2_bytes},
                      {"sm_clock_ghz", result.device.sm_clock_ghz}}},
          {"options", {{"backends", o.backends},
                       {"formats", formats},
                       {"shapes", shapes},
                       {"arch", std::string(ref::arch_name(o.arch))},
                       {"family", o.family == ref::InstrFamily::wgmma ? "wgmma" : "mma"},
                       {"warmup", o.warmup},
                       {"samples", o.samples},
                       {"seed", o.seed},
                       {"native", o.native},
                       {"workspace_bytes", o.workspace_bytes}}},
          {"ceilings", {{"memory_bytes_per_s", c.memory_bytes_per_s},
                        {"cuda_core_lane_ops_per_s", c.lane_ops_per_s},
                        {"tensor_macs_per_s", tensor},
                        {"note", "memory: the bandwidth option (H200 datasheet 4.8 TB/s by default); CUDA cores: "
                                 "SMs x 128 fp32 lanes x reported boost clock; tensor cores: Hopper's dense "
                                 "per-SM rates at the reported boost clock (null on other GPUs)"}}},
          {"rows", rows}};
}

std::string gemm_report_markdown(const GemmBenchResult& result) {
  std::ostringstream md;
  std::string gpu;
  for (const auto& [k, v] : result.provenance)
    if (k == "gpu" || k == "driver" || k == "cuda_runtime" || k == "cublaslt" || k == "commit")
      gpu += (gpu.empty() ? "" : ", ") + k + " " + v;
  md << "GEMM throughput (TMAC/s = M*N*K / kernel time / 1e12; median of the timed samples, spread p10-p90).\n\n"
     << gpu << "\n\n"
     << "| shape | format | backend | TMAC/s median | spread | native TMAC/s | ratio | limit |\n"
     << "|---|---|---|---:|---:|---:|---:|---|\n";
  for (const auto& r : result.rows) {
    md << "| " << shape_name(r.shape) << " | " << ref::format_name(r.format) << " | " << r.backend << " | ";
    if (r.status != "measured") {
      md << r.status << " | | | | " << cell(r.reason) << " |\n";
      continue;
    }
    md << num("%.3f", r.tmacs->median) << " | " << num("%.3f", r.tmacs->p10) << "-" << num("%.3f", r.tmacs->p90)
       << " | ";
    if (r.native_tmacs) md << num("%.1f", *r.native_tmacs);
    if (r.native_fast_tmacs) md << " (fast " << num("%.1f", *r.native_fast_tmacs) << ")";
    md << " | ";
    if (r.ratio) md << num("%.4f", *r.ratio);
    md << " | " << (r.floor ? cell(r.floor->summary) : "");
    if (!r.reason.empty()) md << "; " << cell(r.reason);
    md << " |\n";
  }
  if (result.interrupted) md << "\n**Interrupted**: a signal stopped the run; the cases after the last row were not run.\n";
  return md.str();
}

}  // namespace mmaemu::bench
