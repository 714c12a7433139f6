#include "harness/cublaslt/lt_call.hpp"
#include "harness/core/json_integer.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::lt {

std::string_view compute_name(ComputeType c) { return c == ComputeType::f32 ? "32F" : "32F_FAST_TF32"; }

std::optional<ComputeType> parse_compute(std::string_view s) {
  if (s == "32F") return ComputeType::f32;
  if (s == "32F_FAST_TF32") return ComputeType::f32_fast_tf32;
  return std::nullopt;
}

std::string_view layout_name(Layout l) { return l == Layout::tn ? "TN" : l == Layout::nn ? "NN" : "NT"; }

std::optional<Layout> parse_layout(std::string_view s) {
  if (s == "TN") return Layout::tn;
  if (s == "NN") return Layout::nn;
  if (s == "NT") return Layout::nt;
  return std::nullopt;
}

bool LtCall::is_fp8() const {
  auto fp8 = [](ref::FormatId f) { return f == ref::FormatId::e4m3 || f == ref::FormatId::e5m2; };
  return fp8(a) || fp8(b);
}

namespace {
std::string short_float(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}
}  // namespace

std::string LtCall::name() const {
  std::string n = std::string(ref::format_name(a)) + "x" + std::string(ref::format_name(b)) + "->" +
                  std::string(ref::format_name(d)) + " " + std::string(compute_name(compute)) + " " +
                  std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + " a=" + short_float(alpha) +
                  " b=" + short_float(beta);
  if (is_fp8()) {
    n += " sa=" + short_float(scale_a) + " sb=" + short_float(scale_b);
    n += fast_accum ? " fast" : " promoted";
  }
  if (layout != Layout::tn) n += " " + std::string(layout_name(layout));
  if (max_workspace) n += " ws=" + std::to_string(max_workspace);
  if (bias) n += " epilogue=bias";
  if (batch > 1) n += " batch=" + std::to_string(batch);
  return n;
}

std::string LtAlgoConfig::describe() const {
  return "algo " + std::to_string(algo_id) + " tile " + (tile_name.empty() ? std::to_string(tile) : tile_name) +
         " stages " + (stages_name.empty() ? std::to_string(stages) : stages_name) + " split-K " +
         std::to_string(split_k) + " reduction " + std::to_string(reduction) + " swizzle " + std::to_string(swizzle) +
         " custom " + std::to_string(custom) + " inner " + std::to_string(inner_shape) + " cluster " +
         std::to_string(cluster);
}

nlohmann::json to_json(const LtCall& c) {
  nlohmann::json j = {{"a", ref::format_name(c.a)},         {"b", ref::format_name(c.b)},
                      {"c", ref::format_name(c.c)},         {"d", ref::format_name(c.d)},
                      {"compute", compute_name(c.compute)}, {"m", c.M},
                      {"n", c.N},                           {"k", c.K},
                      {"alpha", c.alpha},                   {"beta", c.beta},
                      {"scale_a", c.scale_a},               {"scale_b", c.scale_b},
                      {"fast_accum", c.fast_accum}};
  // Written only where they differ from what every earlier recording meant (TN, the whole workspace).
  if (c.layout != Layout::tn) j["layout"] = layout_name(c.layout);
  if (c.max_workspace) j["max_workspace"] = c.max_workspace;
  if (c.bias) j["epilogue"] = "bias";
  if (c.batch > 1) j["batch"] = c.batch;
  return j;
}

namespace {
ref::FormatId format_at(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto f = ref::parse_format(j.at(key).get<std::string>());
  if (!f) throw InputError(where, std::string("unknown format in '") + key + "'");
  return *f;
}
}  // namespace

LtCall call_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    LtCall c;
    c.a = format_at(j, "a", where);
    c.b = format_at(j, "b", where);
    c.c = format_at(j, "c", where);
    c.d = format_at(j, "d", where);
    const auto compute = parse_compute(j.at("compute").get<std::string>());
    if (!compute) throw InputError(where, "unknown compute type");
    c.compute = *compute;
    c.M = json_integer<size_t>(j.at("m"));
    c.N = json_integer<size_t>(j.at("n"));
    c.K = json_integer<size_t>(j.at("k"));
    c.alpha = j.at("alpha").get<float>();
    c.beta = j.at("beta").get<float>();
    c.scale_a = j.value("scale_a", 1.0f);
    c.scale_b = j.value("scale_b", 1.0f);
    c.fast_accum = j.value("fast_accum", false);
    if (j.contains("layout")) {
      const auto l = parse_layout(j.at("layout").get<std::string>());
      if (!l) throw InputError(where, "unknown layout (TN, NN, NT)");
      c.layout = *l;
    }
    if (j.contains("max_workspace")) c.max_workspace = json_integer<size_t>(j.at("max_workspace"));
    if (j.contains("batch")) c.batch = json_integer<size_t>(j.at("batch"));
    if (j.contains("epilogue")) {
      if (j.at("epilogue") != "bias") throw InputError(where, "unknown epilogue (bias)");
      c.bias = true;
    }
    if (c.M == 0 || c.N == 0 || c.K == 0) throw InputError(where, "m, n and k must be positive");
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("malformed call: ") + e.what());
  }
}

nlohmann::json to_json(const LtAlgoConfig& a) {
  return {{"algo_id", a.algo_id},   {"tile", a.tile},         {"tile_name", a.tile_name},
          {"stages", a.stages},     {"stages_name", a.stages_name}, {"split_k", a.split_k},
          {"reduction", a.reduction}, {"swizzle", a.swizzle}, {"custom", a.custom},
          {"inner_shape", a.inner_shape}, {"cluster", a.cluster}, {"workspace", a.workspace}};
}

LtAlgoConfig algo_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    LtAlgoConfig a;
    a.algo_id = json_integer<int>(j.at("algo_id"));
    a.tile = json_integer<int>(j.at("tile"));
    a.tile_name = j.value("tile_name", "");
    a.stages = json_integer<int>(j.at("stages"));
    a.stages_name = j.value("stages_name", "");
    a.split_k = json_integer<int>(j.at("split_k"));
    a.reduction = json_integer<int>(j.at("reduction"));
    // The optional keys go through json_integer too: j.value() would cast a huge float to int.
    auto optional = [&j](const char* key, auto absent) {
      return j.contains(key) ? json_integer<decltype(absent)>(j.at(key)) : absent;
    };
    a.swizzle = optional("swizzle", 0);
    a.custom = optional("custom", 0);
    a.inner_shape = optional("inner_shape", 0);
    a.cluster = optional("cluster", 0);
    a.workspace = optional("workspace", size_t{0});
    return a;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("malformed algorithm: ") + e.what());
  }
}

LtAlgoConfig read_algo_config(const std::filesystem::path& file) {
  const std::string where = file.string();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_input_file(file, "the algorithm configuration"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not valid JSON: ") + e.what());
  }
  const LtAlgoConfig config = algo_from_json(j, where);
  // A configuration the model has no rules for is the file's problem, said before any arithmetic.
  ref::LibraryAlgo algo;
  algo.algo_id = config.algo_id;
  if (const auto why = ref::model_declines(algo)) throw InputError(where, why->detail);
  return config;
}

std::vector<uint32_t> transpose(const std::vector<uint32_t>& x, size_t rows, size_t cols) {
  std::vector<uint32_t> t(x.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) t[c * rows + r] = x[r * cols + c];
  return t;
}

}  // namespace mmaemu::lt
