#include "harness/cublaslt/lt_plan.hpp"

#include <charconv>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::lt {
namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

size_t positive(const std::string& s, const std::string& where) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v == 0)
    throw InputError(where, "'" + s + "' is not a positive integer");
  return v;
}

float number(const std::string& s, const std::string& where) {
  try {
    size_t used = 0;
    const float v = std::stof(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw InputError(where, "'" + s + "' is not a number");
  }
}

ref::FormatId format(const std::string& s, const std::string& where) {
  const auto f = ref::parse_format(s);
  if (!f) throw InputError(where, "unknown format '" + s + "'");
  return *f;
}

// The value at index i of a string list, with its own position when yaml-cpp has one.
std::string where_item(const std::string& file, const YAML::Node& list, size_t i) {
  return where(file, list[i]);
}

struct Group {
  std::string name;
  std::vector<LtCall> types;  // a, b, c, d, compute filled
  std::vector<std::array<size_t, 3>> shapes;
  std::vector<std::pair<float, float>> scalars, scales;
  std::vector<bool> fast;
  std::vector<gen::Family> families;
  bool run = true, table_only = false;
  std::optional<ForcedConfigs> forced;
  std::vector<Layout> layouts = {Layout::tn};
  std::vector<size_t> workspaces = {0};  // 0: the session's
  std::vector<size_t> batches = {1};      // table_only: strided batched calls of this many products
  std::vector<bool> bias = {false};       // table_only: with CUBLASLT_EPILOGUE_BIAS or without
};

// A list of whole numbers (>= lowest) at `list`, each error at its own position.
std::vector<size_t> whole_numbers(const YAML::Node& list, const std::string& file, size_t lowest) {
  std::vector<size_t> out;
  for (const auto& x : list) {
    size_t value = 0;
    try {
      value = x.as<size_t>();
    } catch (const YAML::Exception&) {
      throw InputError(where(file, x), "expected a whole number");
    }
    if (value < lowest) throw InputError(where(file, x), "must be at least " + std::to_string(lowest));
    out.push_back(value);
  }
  if (out.empty()) throw InputError(where(file, list), "empty list");
  return out;
}

// shape_grid: {M: [...], N: [...], K: [...]}, every combination.
std::vector<std::array<size_t, 3>> read_shape_grid(const YAML::Node& node, const std::string& file,
                                                   const std::filesystem::path& dir) {
  static const Schema schema = {required_key("M", ValueType::sequence), required_key("N", ValueType::sequence),
                                required_key("K", ValueType::sequence)};
  check_mapping(node, file, schema, "shape_grid", dir);
  std::vector<std::array<size_t, 3>> out;
  for (const size_t m : whole_numbers(node["M"], file, 1))
    for (const size_t n : whole_numbers(node["N"], file, 1))
      for (const size_t k : whole_numbers(node["K"], file, 1)) out.push_back({m, n, k});
  return out;
}

ForcedConfigs read_forced(const YAML::Node& node, const std::string& file, const std::filesystem::path& dir) {
  static const Schema schema = {required_key("algo", ValueType::integer), required_key("split_k", ValueType::sequence),
                                required_key("custom", ValueType::sequence)};
  const SchemaValues v = check_mapping(node, file, schema, "configs", dir);
  ForcedConfigs f;
  f.algo = static_cast<int>(v.at("algo").number);
  auto ints = [&](const YAML::Node& list, std::vector<int>& out, int lowest) {
    for (const auto& x : list) {
      int value = 0;
      try {
        value = x.as<int>();
      } catch (const YAML::Exception&) {
        throw InputError(where(file, x), "expected an integer");
      }
      if (value < lowest) throw InputError(where(file, x), "must be at least " + std::to_string(lowest));
      out.push_back(value);
    }
    if (out.empty()) throw InputError(where(file, list), "empty list");
  };
  ints(node["split_k"], f.split_k, 1);
  ints(node["custom"], f.custom, 0);
  return f;
}

Group read_group(const YAML::Node& node, const std::string& file, const std::filesystem::path& dir) {
  static const Schema schema = {
      required_key("name", ValueType::string),      required_key("types", ValueType::string_list),
      optional_key("shapes", ValueType::string_list), optional_key("shape_grid", ValueType::mapping),
      required_key("scalars", ValueType::string_list),
      optional_key("scales", ValueType::string_list), optional_key("fast_accum", ValueType::sequence),
      required_key("families", ValueType::string_list), optional_key("run", ValueType::boolean),
      optional_key("configs", ValueType::mapping),   optional_key("layouts", ValueType::string_list),
      optional_key("workspaces", ValueType::sequence), optional_key("table_only", ValueType::boolean),
      optional_key("batches", ValueType::sequence),   optional_key("epilogues", ValueType::string_list)};
  const SchemaValues v = check_mapping(node, file, schema, "group", dir);
  Group g;
  g.name = v.at("name").text;
  const YAML::Node types = node["types"], shapes = node["shapes"], scalars = node["scalars"];
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string at = where_item(file, types, i);
    const auto w = words(types[i].as<std::string>());
    if (w.size() != 4) throw InputError(at, "a type is 'A B D compute', e.g. 'bf16 bf16 fp32 32F'");
    LtCall c;
    c.a = format(w[0], at);
    c.b = format(w[1], at);
    c.d = c.c = format(w[2], at);
    const auto compute = parse_compute(w[3]);
    if (!compute) throw InputError(at, "unknown compute type '" + w[3] + "' (32F, 32F_FAST_TF32)");
    c.compute = *compute;
    g.types.push_back(c);
  }
  if (node["shapes"].IsDefined() == node["shape_grid"].IsDefined())
    throw InputError(where(file, node), "group '" + g.name + "' needs 'shapes' or 'shape_grid' (one of them)");
  if (node["shape_grid"]) g.shapes = read_shape_grid(node["shape_grid"], file, dir);
  for (size_t i = 0; shapes && i < shapes.size(); ++i) {
    const std::string at = where_item(file, shapes, i), s = shapes[i].as<std::string>();
    const size_t x1 = s.find('x'), x2 = s.find('x', x1 == std::string::npos ? x1 : x1 + 1);
    if (x1 == std::string::npos || x2 == std::string::npos) throw InputError(at, "a shape is MxNxK");
    g.shapes.push_back({positive(s.substr(0, x1), at), positive(s.substr(x1 + 1, x2 - x1 - 1), at),
                        positive(s.substr(x2 + 1), at)});
  }
  auto pairs = [&](const YAML::Node& list, const char* what) {
    std::vector<std::pair<float, float>> out;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = where_item(file, list, i);
      const auto w = words(list[i].as<std::string>());
      if (w.size() != 2) throw InputError(at, std::string("a ") + what + " entry is two numbers");
      out.emplace_back(number(w[0], at), number(w[1], at));
    }
    return out;
  };
  g.scalars = pairs(scalars, "scalars");
  g.scales = node["scales"] ? pairs(node["scales"], "scales") : std::vector<std::pair<float, float>>{{1.0f, 1.0f}};
  if (node["fast_accum"]) {
    for (const auto& f : node["fast_accum"]) {
      try {
        g.fast.push_back(f.as<bool>());
      } catch (const YAML::Exception&) {
        throw InputError(where(file, f), "fast_accum holds true / false");
      }
    }
  } else {
    g.fast = {false};
  }
  const YAML::Node fams = node["families"];
  for (size_t i = 0; i < fams.size(); ++i) {
    const auto f = gen::parse_family(fams[i].as<std::string>());
    if (!f) throw InputError(where_item(file, fams, i), "unknown input family '" + fams[i].as<std::string>() + "'");
    g.families.push_back(*f);
  }
  if (v.count("run")) g.run = v.at("run").flag;
  if (node["configs"]) g.forced = read_forced(node["configs"], file, dir);
  if (node["layouts"]) {
    g.layouts.clear();
    const YAML::Node list = node["layouts"];
    for (size_t i = 0; i < list.size(); ++i) {
      const auto l = parse_layout(list[i].as<std::string>());
      if (!l) throw InputError(where_item(file, list, i), "unknown layout '" + list[i].as<std::string>() + "' (TN, NN, NT)");
      g.layouts.push_back(*l);
    }
  }
  if (node["workspaces"]) g.workspaces = whole_numbers(node["workspaces"], file, 0);
  if (v.count("table_only")) g.table_only = v.at("table_only").flag;
  // Batched and bias calls are asked of the heuristic only: the recorder runs plain calls.
  if (node["batches"]) {
    if (!g.table_only) throw InputError(where(file, node["batches"]), "batches: only in table_only groups");
    g.batches = whole_numbers(node["batches"], file, 1);
  }
  if (node["epilogues"]) {
    if (!g.table_only) throw InputError(where(file, node["epilogues"]), "epilogues: only in table_only groups");
    g.bias.clear();
    const YAML::Node list = node["epilogues"];
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string e = list[i].as<std::string>();
      if (e != "none" && e != "bias") throw InputError(where_item(file, list, i), "unknown epilogue '" + e + "' (none, bias)");
      g.bias.push_back(e == "bias");
    }
    if (g.bias.empty()) throw InputError(where(file, list), "empty list");
  }
  if (g.table_only && g.run)
    throw InputError(v.at("table_only").where, "table_only groups ask the heuristic only: set run: false");
  if (g.types.empty() || g.shapes.empty() || g.scalars.empty() || g.families.empty() || g.fast.empty())
    throw InputError(where(file, node), "group '" + g.name + "' has an empty list");
  return g;
}

// A seed per call that does not depend on the plan's order: the plan's seed mixed with the call.
uint64_t call_seed(uint64_t base, size_t index) {
  uint64_t x = base * 0x9E3779B97F4A7C15ull + index + 1;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

}  // namespace

LtPlan load_plan(const std::filesystem::path& file) {
  const std::string f = file.string();
  const YAML::Node root = load_yaml_file(file);
  static const Schema schema = {required_key("plan", ValueType::string), optional_key("description", ValueType::string),
                                optional_key("seed", ValueType::integer),
                                optional_key("heuristic_results", ValueType::integer),
                                required_key("groups", ValueType::sequence)};
  const SchemaValues v = check_mapping(root, f, schema, "plan", file.parent_path());
  LtPlan plan;
  plan.name = v.at("plan").text;
  plan.file = file;
  if (v.count("seed")) plan.seed = v.at("seed").number;
  if (v.count("heuristic_results")) {
    plan.heuristic_results = static_cast<int>(v.at("heuristic_results").number);
    if (plan.heuristic_results < 1 || plan.heuristic_results > 64)
      throw InputError(v.at("heuristic_results").where, "heuristic_results must be 1 to 64");
  }
  for (const auto& node : root["groups"]) {
    const Group g = read_group(node, f, file.parent_path());
    for (const auto& t : g.types)
      for (const auto& s : g.shapes)
        for (const auto& [alpha, beta] : g.scalars)
          for (const auto& [sa, sb] : (t.is_fp8() ? g.scales : std::vector<std::pair<float, float>>{{1.0f, 1.0f}}))
            for (const bool fast : (t.is_fp8() ? g.fast : std::vector<bool>{false}))
              for (const auto fam : g.families)
                for (const Layout layout : g.layouts)
                  for (const size_t workspace : g.workspaces)
                    for (const size_t batch : g.batches)
                      for (const bool bias : g.bias) {
                PlannedCall p;
                p.call = t;
                p.call.batch = batch;
                p.call.bias = bias;
                p.call.layout = layout;
                p.call.max_workspace = workspace;
                p.table_only = g.table_only;
                p.call.M = s[0];
                p.call.N = s[1];
                p.call.K = s[2];
                p.call.alpha = alpha;
                p.call.beta = beta;
                p.call.scale_a = sa;
                p.call.scale_b = sb;
                p.call.fast_accum = fast;
                p.family = fam;
                p.group = g.name;
                p.run = g.run;
                p.forced = g.forced;
                p.seed = call_seed(plan.seed, plan.calls.size());
                plan.calls.push_back(p);
              }
  }
  return plan;
}

LtOperands generate_operands(const LtCall& call, gen::Family family, uint64_t seed) {
  LtOperands ops;
  ops.a.resize(call.M * call.K);
  ops.b.resize(call.K * call.N);
  ops.c.resize(call.M * call.N);
  // The generator fills one "tile" of the instruction's shape: here the whole GEMM.
  const ref::Instruction whole{"gemm",         ref::InstrFamily::mma_sync, static_cast<int>(call.M),
                               static_cast<int>(call.N), static_cast<int>(call.K), call.a, call.b, call.c, call.d, {}, std::nullopt};
  gen::generate_tile(family, whole, seed, ops.a.data(), ops.b.data(), ops.c.data());
  return ops;
}

}  // namespace mmaemu::lt
