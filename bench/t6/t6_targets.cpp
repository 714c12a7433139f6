#include "bench/t6/t6_targets.hpp"

#include <cmath>
#include <cstdlib>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::t6 {
namespace {

const Schema& targets_schema() {
  static const Schema s = {
      optional_key("reference", ValueType::mapping),       optional_key("cpu", ValueType::mapping),
      optional_key("cpu_vs_mmasim", ValueType::mapping),   optional_key("tc_vs_cublaslt", ValueType::mapping),
      optional_key("cuda_core_tmacs", ValueType::mapping), optional_key("library_gpu_vs_cublaslt", ValueType::mapping),
      optional_key("startup", ValueType::mapping),         optional_key("process_vs_mmasim", ValueType::mapping),
      optional_key("cpu_library_vs_sgemm", ValueType::mapping), optional_key("model_slowdown", ValueType::mapping),
  };
  return s;
}
const Schema& row_schema() {
  static const Schema s = {required_key("row", ValueType::string), required_key("at_least", ValueType::string)};
  return s;
}
const Schema& startup_schema() {
  static const Schema s = {required_key("row", ValueType::string), required_key("seconds_at_most", ValueType::string),
                           required_key("rss_mb_at_most", ValueType::string)};
  return s;
}
const Schema& cpu_library_schema() {
  static const Schema s = {required_key("shapes", ValueType::string_list), required_key("format", ValueType::string),
                           required_key("at_least", ValueType::string)};
  return s;
}
const Schema& model_slowdown_schema() {
  static const Schema s = {required_key("device", ValueType::string), required_key("at_most", ValueType::string)};
  return s;
}
const Schema& native_ratio_schema() {
  static const Schema s = {required_key("shapes", ValueType::string_list), required_key("formats", ValueType::string_list),
                           required_key("at_least", ValueType::string)};
  return s;
}
const Schema& cuda_core_schema() {
  static const Schema s = {required_key("formats", ValueType::string_list), required_key("shapes", ValueType::sequence)};
  return s;
}
const Schema& shape_figure_schema() {
  static const Schema s = {required_key("shape", ValueType::string), required_key("at_least", ValueType::string)};
  return s;
}

// A positive figure such as 20e6 or 0.5.
double figure(const SchemaValues& v, const std::string& key) {
  const SchemaValue& x = v.at(key);
  char* end = nullptr;
  const double d = std::strtod(x.text.c_str(), &end);
  if (x.text.empty() || *end != '\0' || !std::isfinite(d) || d <= 0)
    throw InputError(x.where, "'" + key + "' is a positive number (such as 20e6 or 0.5), not '" + x.text + "'");
  return d;
}

}  // namespace

T6Targets load_targets(const YAML::Node& node, const std::string& file) {
  const SchemaValues v = check_mapping(node, file, targets_schema(), "targets section", {});
  T6Targets t;
  auto row = [&](const char* key) -> std::optional<RowTarget> {
    if (!v.count(key)) return std::nullopt;
    const SchemaValues r = check_mapping(v.at(key).node, file, row_schema(), std::string("target ") + key, {});
    return RowTarget{r.at("row").text, figure(r, "at_least")};
  };
  t.reference = row("reference");
  t.cpu = row("cpu");
  t.cpu_vs_mmasim = row("cpu_vs_mmasim");
  t.process_vs_mmasim = row("process_vs_mmasim");
  if (v.count("cpu_library_vs_sgemm")) {
    const SchemaValues r =
        check_mapping(v.at("cpu_library_vs_sgemm").node, file, cpu_library_schema(), "target cpu_library_vs_sgemm", {});
    t.cpu_library_vs_sgemm = CpuLibraryTarget{r.at("shapes").list, r.at("format").text, figure(r, "at_least")};
  }
  if (v.count("model_slowdown")) {
    const SchemaValues r = check_mapping(v.at("model_slowdown").node, file, model_slowdown_schema(), "target model_slowdown", {});
    t.model_slowdown = ModelSlowdownTarget{r.at("device").text, figure(r, "at_most")};
  }
  if (v.count("startup")) {
    const SchemaValues r = check_mapping(v.at("startup").node, file, startup_schema(), "target startup", {});
    t.startup = StartupTarget{r.at("row").text, figure(r, "seconds_at_most"), figure(r, "rss_mb_at_most")};
  }
  if (v.count("tc_vs_cublaslt")) {
    const SchemaValues r = check_mapping(v.at("tc_vs_cublaslt").node, file, native_ratio_schema(), "target tc_vs_cublaslt", {});
    t.tc_vs_cublaslt = NativeRatioTarget{r.at("shapes").list, r.at("formats").list, figure(r, "at_least")};
  }
  if (v.count("cuda_core_tmacs")) {
    const SchemaValues r = check_mapping(v.at("cuda_core_tmacs").node, file, cuda_core_schema(), "target cuda_core_tmacs", {});
    CudaCoreTargets c{r.at("formats").list, {}};
    for (const YAML::Node& entry : r.at("shapes").node) {
      const SchemaValues s = check_mapping(entry, file, shape_figure_schema(), "cuda_core_tmacs shape", {});
      c.shapes.push_back({s.at("shape").text, figure(s, "at_least")});
    }
    if (c.shapes.empty()) throw InputError(r.at("shapes").where, "'shapes' lists at least one {shape, at_least}");
    t.cuda_core_tmacs = std::move(c);
  }
  if (v.count("library_gpu_vs_cublaslt")) {
    const SchemaValues r =
        check_mapping(v.at("library_gpu_vs_cublaslt").node, file, shape_figure_schema(), "target library_gpu_vs_cublaslt", {});
    t.library_gpu_vs_cublaslt = LibraryGpuTarget{r.at("shape").text, figure(r, "at_least")};
  }
  return t;
}

}  // namespace mmaemu::t6
