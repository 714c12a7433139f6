#include "harness/cublaslt/lt_resolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu::lt {
namespace {

constexpr double kSms = 132;  // the H200's SMs: the waves features count in them
constexpr size_t kSessionWorkspace = size_t{32} << 20;  // max_workspace 0: the recording session's
const int kTiles[][2] = {{64, 8}, {64, 16}, {64, 32}, {64, 64}, {128, 64}, {64, 128}, {128, 128}, {256, 128}, {128, 256}};

size_t workspace_of(const LtCall& c) { return c.max_workspace ? c.max_workspace : kSessionWorkspace; }

}  // namespace

const std::vector<std::string>& Resolver::feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"m", "n", "k", "m*n", "m*n*k", "k*k/(m*n)"};
    for (const auto& t : kTiles)
      for (const char* w : {"tiles", "waves", "last_wave"})
        n.push_back(std::string(w) + "_" + std::to_string(t[0]) + "x" + std::to_string(t[1]));
    for (const char* v : {"m", "n", "k"})
      for (int g : {2, 4, 8, 16}) n.push_back(std::string(v) + "%" + std::to_string(g));
    for (const char* s : {"d_is_fp32", "workspace_32mib", "layout", "fast_accum"}) n.push_back(s);
    return n;
  }();
  return names;
}

std::vector<double> Resolver::features(const LtCall& c) {
  const double M = static_cast<double>(c.M), N = static_cast<double>(c.N), K = static_cast<double>(c.K);
  std::vector<double> f = {M, N, K, M * N, M * N * K, K * K / (M * N)};
  for (const auto& t : kTiles) {
    const double tiles = std::ceil(M / t[0]) * std::ceil(N / t[1]);
    f.push_back(tiles);
    f.push_back(std::ceil(tiles / kSms));
    f.push_back(tiles / kSms - std::floor(tiles / kSms));
  }
  for (const double v : {M, N, K})
    for (const double g : {2.0, 4.0, 8.0, 16.0}) f.push_back(std::fmod(v, g));
  f.push_back(c.d == ref::FormatId::fp32 ? 1 : 0);
  f.push_back(workspace_of(c) == kSessionWorkspace ? 1 : 0);
  f.push_back(c.layout == Layout::tn ? 0 : c.layout == Layout::nn ? 1 : 2);
  f.push_back(c.fast_accum ? 1 : 0);
  return f;
}

const std::vector<std::string>& Resolver::batched_feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = feature_names();
    n.push_back("batch");
    return n;
  }();
  return names;
}

std::vector<double> Resolver::batched_features(const LtCall& c) {
  std::vector<double> f = features(c);
  f.push_back(static_cast<double>(c.batch));
  return f;
}

std::string Resolver::recorded_key(const LtCall& c) {
  return std::string(ref::format_name(c.d)) + "|" + std::string(layout_name(c.layout)) + "|" +
         std::to_string(workspace_of(c)) + "|" + (c.fast_accum ? "1" : "0") + "|" + std::to_string(c.M) + "|" +
         std::to_string(c.N) + "|" + std::to_string(c.K);
}

// One tree of a resolver file (`m`, a "models" entry) over `n_features` features; InputError naming the file
// when it is malformed.
Resolver::Tree Resolver::parse_tree(const nlohmann::json& m, size_t n_features, const std::string& where) {
  Tree t;
  const auto a = ref::parse_format(m.at("a").get<std::string>()), b = ref::parse_format(m.at("b").get<std::string>());
  if (!a || !b) throw InputError(where, "a model names an unknown format");
  t.a = *a;
  t.b = *b;
  t.feature = m.at("feature").get<std::vector<int>>();
  t.left = m.at("left").get<std::vector<int>>();
  t.right = m.at("right").get<std::vector<int>>();
  t.leaf_class = m.at("leaf_class").get<std::vector<int>>();
  t.threshold = m.at("threshold").get<std::vector<double>>();
  t.leaf_support = m.at("leaf_support").get<std::vector<size_t>>();
  const size_t n = t.feature.size();
  if (t.left.size() != n || t.right.size() != n || t.leaf_class.size() != n || t.threshold.size() != n ||
      t.leaf_support.size() != n || n == 0)
    throw InputError(where, "a tree's arrays differ in length");
  if (m.contains("certainty")) {  // absent only for a pair without held-back queries (e5m2 x e5m2)
    const auto& c = m.at("certainty");
    t.certainty.support_edges = c.at("support_edges").get<std::vector<size_t>>();
    t.certainty.aligned = c.at("aligned").get<std::vector<double>>();
    t.certainty.unaligned = c.at("unaligned").get<std::vector<double>>();
    t.certainty.aligned_queries = c.at("aligned_queries").get<std::vector<size_t>>();
    t.certainty.unaligned_queries = c.at("unaligned_queries").get<std::vector<size_t>>();
    const size_t bins = t.certainty.support_edges.size();
    const auto in_unit = [](const std::vector<double>& v) {
      return std::all_of(v.begin(), v.end(), [](double x) { return x >= 0 && x <= 1; });
    };
    if (bins == 0 || t.certainty.support_edges[0] != 1 || !std::is_sorted(t.certainty.support_edges.begin(), t.certainty.support_edges.end()) ||
        t.certainty.aligned.size() != bins || t.certainty.unaligned.size() != bins ||
        t.certainty.aligned_queries.size() != bins || t.certainty.unaligned_queries.size() != bins ||
        !in_unit(t.certainty.aligned) || !in_unit(t.certainty.unaligned))
      throw InputError(where, "a tree's certainty table is malformed");
  }
  for (const auto& cls : m.at("classes")) {
    Resolution res;
    if (cls.contains("refused")) res.refused = cls.at("refused").get<std::string>();
    else res.config = algo_from_json(cls, where);
    t.classes.push_back(std::move(res));
  }
  for (const auto& r : m.at("recorded")) {
    const size_t cls = r.at("class").get<size_t>();
    if (cls >= t.classes.size()) throw InputError(where, "a recorded answer names no class of its tree");
    t.recorded[r.at("key").get<std::string>()] = cls;
  }
  for (size_t i = 0; i < n; ++i) {
    const bool leaf = t.feature[i] < 0;
    const auto child_ok = [&](int c) { return c > static_cast<int>(i) && c < static_cast<int>(n); };
    if (leaf ? (t.leaf_class[i] < 0 || t.leaf_class[i] >= static_cast<int>(t.classes.size()))
             : (t.feature[i] >= static_cast<int>(n_features) || !child_ok(t.left[i]) || !child_ok(t.right[i])))
      throw InputError(where, "tree node " + std::to_string(i) + " is malformed");
  }
  return t;
}

Resolver Resolver::load(const std::filesystem::path& file) {
  const std::string where = file.string();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_input_file(file, "the resolver"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not valid JSON: ") + e.what());
  }
  // (value() would throw a type_error for a schema that is not a string: check the type first.)
  if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string() || j["schema"] != "mmaemu-cublaslt-resolver/2")
    throw InputError(where, "schema is not mmaemu-cublaslt-resolver/2 (a resolver with its certainty: refit it with "
                            "scripts/cublaslt_resolver_fit.py)");
  Resolver r;
  r.file_ = file;
  try {
    if (j.at("features").get<std::vector<std::string>>() != feature_names())
      throw InputError(where, "written for other features than this build computes (refit it with "
                              "scripts/cublaslt_resolver_fit.py)");
    r.workspaces_ = j.at("workspaces").get<std::vector<size_t>>();
    for (const auto& m : j.at("models")) r.trees_.push_back(parse_tree(m, feature_names().size(), where));
    // Strided batched calls' own trees (features: the plain ones and the batch count), when fitted.
    if (j.contains("batched")) {
      const auto& b = j.at("batched");
      if (b.at("features").get<std::vector<std::string>>() != batched_feature_names())
        throw InputError(where, "its batched trees were written for other features than this build computes (refit it "
                                "with scripts/cublaslt_resolver_fit.py)");
      for (const auto& m : b.at("models")) r.batched_trees_.push_back(parse_tree(m, batched_feature_names().size(), where));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("malformed resolver: ") + e.what());
  }
  return r;
}

Resolution Resolver::resolve(const LtCall& call, const std::string& option) const {
  const auto pair = [&](const Tree& t) { return t.a == call.a && t.b == call.b; };
  // A strided batched call goes to its pair's batched tree where the file has one; otherwise to the plain
  // tree (the caller's call-kind rule then applies: harness/api/call_kinds.hpp).
  const auto batched_tree = call.batch > 1 ? std::find_if(batched_trees_.begin(), batched_trees_.end(), pair) : batched_trees_.end();
  const bool batched = batched_tree != batched_trees_.end();
  const auto tree = batched ? batched_tree : std::find_if(trees_.begin(), trees_.end(), pair);
  if (tree == trees_.end())
    throw InputError(option, "the resolver (" + file_.string() + ") has no tree for " +
                                 std::string(ref::format_name(call.a)) + " x " + std::string(ref::format_name(call.b)));
  if (std::find(workspaces_.begin(), workspaces_.end(), workspace_of(call)) == workspaces_.end())
    throw InputError(option, "the resolver was fitted for workspace limits of 32 MiB and 1 MiB, not " +
                                 std::to_string(workspace_of(call)) + " bytes");
  if (const auto hit = tree->recorded.find(recorded_key(call)); !batched && hit != tree->recorded.end()) {
    Resolution r = tree->classes[hit->second];
    r.certainty = 1;
    r.basis = "the answer recorded for this very call";
    return r;
  }
  const std::vector<double> f = batched ? batched_features(call) : features(call);
  size_t node = 0;
  while (tree->feature[node] >= 0) {
    // scikit-learn compares the feature as float32 (its input dtype) against a float64 threshold
    const double x = static_cast<double>(static_cast<float>(f[static_cast<size_t>(tree->feature[node])]));
    node = static_cast<size_t>(x <= tree->threshold[node] ? tree->left[node] : tree->right[node]);
  }
  Resolution r = tree->classes[static_cast<size_t>(tree->leaf_class[node])];
  r.batched_tree = batched;
  const std::string fitted = batched ? "a fitted leaf of the batched tree, " : "a fitted leaf of ";
  const size_t support = tree->leaf_support[node];
  const Certainty& ct = tree->certainty;
  const bool aligned = call.M % 8 == 0 && call.N % 8 == 0 && call.K % 8 == 0;
  if (ct.support_edges.empty()) {
    r.certainty = 0;
    r.basis = fitted + std::to_string(support) + " training answers; no held-back queries to state a certainty";
    return r;
  }
  const size_t bin =
      static_cast<size_t>(std::upper_bound(ct.support_edges.begin(), ct.support_edges.end(), std::max<size_t>(support, 1)) -
                          ct.support_edges.begin()) - 1;
  r.certainty = (aligned ? ct.aligned : ct.unaligned)[bin];
  const size_t queries = (aligned ? ct.aligned_queries : ct.unaligned_queries)[bin];
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100 * r.certainty);
  r.basis = fitted + std::to_string(support) + " training answers; certainty " + pct + " (held-back " +
            (aligned ? "aligned" : "unaligned") + " queries from leaves of " + std::to_string(ct.support_edges[bin]) +
            (bin + 1 < ct.support_edges.size() ? "-" + std::to_string(ct.support_edges[bin + 1] - 1) : "+") +
            " answers: " + std::to_string(queries) + ")";
  return r;
}

}  // namespace mmaemu::lt
