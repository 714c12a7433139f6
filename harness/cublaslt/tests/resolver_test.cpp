// The resolver (lt_resolver.hpp): the C++ evaluation of the shipped decision trees gives the fit's
// answers (resolver-check.csv, written by scripts/cublaslt_resolver_fit.py beside resolver.json), the
// configurations PyTorch's calls ran with on the H200, and clear errors for files and calls outside it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_recording.hpp"
#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::lt {
namespace {

const std::filesystem::path kHeuristic = std::filesystem::path(MMAEMU_SOURCE_DIR) / "fixtures/cublaslt-h200/heuristic";

const Resolver& shipped() {
  static const Resolver r = Resolver::load(kHeuristic / "resolver.json");
  return r;
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, sep);) out.push_back(f);
  return out;
}

// A check file's call: a;b;d;layout;max_workspace;fast_accum;m;n;k (the fit's CHECK_COLUMNS), then more.
LtCall check_row_call(const std::vector<std::string>& f) {
  LtCall call;
  call.a = *ref::parse_format(f[0]);
  call.b = *ref::parse_format(f[1]);
  call.c = call.d = *ref::parse_format(f[2]);
  call.compute = call.a == ref::FormatId::tf32 ? ComputeType::f32_fast_tf32 : ComputeType::f32;
  call.layout = *parse_layout(f[3]);
  call.max_workspace = std::stoull(f[4]);
  call.fast_accum = f[5] == "1";
  call.M = std::stoull(f[6]);
  call.N = std::stoull(f[7]);
  call.K = std::stoull(f[8]);
  return call;
}

TEST(LtResolver, GivesTheFitsAnswersOnHeldOutQueries) {
  std::ifstream in(kHeuristic / "resolver-check.csv");
  ASSERT_TRUE(in) << "resolver-check.csv is missing";
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "a;b;d;layout;max_workspace;fast_accum;m;n;k;resolver");
  size_t checked = 0, refusals = 0;
  while (std::getline(in, line)) {
    const auto f = split(line, ';');
    ASSERT_EQ(f.size(), 10u) << line;
    const LtCall call = check_row_call(f);
    const auto expected = nlohmann::json::parse(f[9]);
    const Resolution got = shipped().resolve(call);
    if (expected.contains("refused")) {
      ++refusals;
      EXPECT_FALSE(got.config) << line;
      EXPECT_EQ(got.refused, expected["refused"].get<std::string>()) << line;
    } else {
      ASSERT_TRUE(got.config) << line << ": " << got.refused;
      EXPECT_EQ(*got.config, algo_from_json(expected, "resolver-check.csv")) << line << " got " << got.config->describe();
    }
    ++checked;
  }
  EXPECT_GE(checked, 2000u);  // 300 per operand-type pair
  EXPECT_GT(refusals, 0u);    // FP8 shapes the library refuses are among them
}

// The batched trees: the fit's answers for held-back batched queries (resolver-check-batched.csv: the
// plain columns, then the batch count), through Resolver::resolve with LtCall::batch set.
TEST(LtResolver, GivesTheBatchedFitsAnswersOnHeldOutQueries) {
  ASSERT_TRUE(shipped().has_batched_trees());
  std::ifstream in(kHeuristic / "resolver-check-batched.csv");
  ASSERT_TRUE(in) << "resolver-check-batched.csv is missing";
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "a;b;d;layout;max_workspace;fast_accum;m;n;k;batch;resolver");
  size_t checked = 0;
  while (std::getline(in, line)) {
    const auto f = split(line, ';');
    ASSERT_EQ(f.size(), 11u) << line;
    LtCall call = check_row_call(f);
    call.batch = std::stoull(f[9]);
    const auto expected = nlohmann::json::parse(f[10]);
    const Resolution got = shipped().resolve(call);
    EXPECT_TRUE(got.batched_tree) << line;
    ASSERT_TRUE(got.config) << line << ": " << got.refused;
    EXPECT_EQ(*got.config, algo_from_json(expected, "resolver-check-batched.csv")) << line << " got " << got.config->describe();
    ++checked;
  }
  EXPECT_GE(checked, 1000u);  // 300 per operand type
  // A single call of the same shape is the plain tree's.
  LtCall single;
  single.a = single.b = single.c = single.d = ref::FormatId::bf16;
  single.M = single.N = single.K = 512;
  EXPECT_FALSE(shipped().resolve(single).batched_tree);
  single.batch = 8;
  EXPECT_TRUE(shipped().resolve(single).batched_tree);
}

// Every call PyTorch 2.11 made on the H200 (fixtures/torch-h200) resolves to the algorithm, split-K and
// reduction scheme cuBLASLt logged for it (their heuristic answers are part of the fit: fit.md).
TEST(LtResolver, ResolvesPyTorchsCallsAsTheLibraryRanThem) {
  const Recording rec = read_recording(std::filesystem::path(MMAEMU_SOURCE_DIR) / "fixtures/torch-h200");
  size_t checked = 0;
  for (const RecordedCall& c : rec.calls) {
    if (c.runs.empty()) continue;
    const LtAlgoConfig& torch = c.runs[0].config;
    const Resolution r = shipped().resolve(c.call);
    ASSERT_TRUE(r.config) << c.call.name();
    EXPECT_EQ(r.config->algo_id, torch.algo_id) << c.call.name();
    EXPECT_EQ(r.config->split_k, torch.split_k) << c.call.name();
    EXPECT_EQ(r.config->reduction, torch.reduction) << c.call.name();
    ++checked;
  }
  EXPECT_EQ(checked, 240u);
}

TEST(LtResolver, FeaturesFollowTheCall) {
  LtCall c;
  c.M = 256;
  c.N = 128;
  c.K = 1000;
  const auto f = Resolver::features(c);
  ASSERT_EQ(f.size(), Resolver::feature_names().size());
  EXPECT_EQ(f[0], 256);
  EXPECT_EQ(f[3], 256.0 * 128);
  c.layout = Layout::nn;
  c.max_workspace = size_t{1} << 20;
  c.fast_accum = true;
  const auto g = Resolver::features(c);
  const size_t n = f.size();  // ..., workspace_32mib, layout, fast_accum
  EXPECT_EQ(f[n - 3], 1);
  EXPECT_EQ(g[n - 3], 0);
  EXPECT_EQ(f[n - 2], 0);
  EXPECT_EQ(g[n - 2], 1);
  EXPECT_EQ(f[n - 1], 0);
  EXPECT_EQ(g[n - 1], 1);
}

TEST(LtResolver, RefusesCallsOutsideItsFit) {
  LtCall c;
  c.M = c.N = c.K = 64;
  c.max_workspace = 12345;  // neither 32 MiB nor 1 MiB
  EXPECT_THROW(shipped().resolve(c), InputError);
  c.max_workspace = 0;
  c.a = c.b = ref::FormatId::e2m1;  // no tree for it
  EXPECT_THROW(shipped().resolve(c), InputError);
}

TEST(LtResolver, ABadFileIsAnInputErrorNamingIt) {
  const auto dir = std::filesystem::temp_directory_path() / "mmaemu_lt_resolver_test";
  std::filesystem::create_directories(dir);
  const nlohmann::json good = {{"schema", "mmaemu-cublaslt-resolver/2"},
                               {"features", Resolver::feature_names()},
                               {"workspaces", {33554432}},
                               {"models", nlohmann::json::array({{{"a", "bf16"}, {"b", "bf16"},
                                                                  {"classes", {{{"refused", "no"}}}},
                                                                  {"feature", {-1}}, {"threshold", {-2.0}},
                                                                  {"left", {-1}}, {"right", {-1}}, {"leaf_class", {0}},
                                                                  {"leaf_support", {5}}, {"recorded", nlohmann::json::array()}}})}};
  auto bad = [&](const std::string& name, nlohmann::json j) {
    const auto f = dir / name;
    std::ofstream(f) << j.dump();
    try {
      Resolver::load(f);
      ADD_FAILURE() << name << " loaded";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(f.string()), std::string::npos) << e.what();
    }
  };
  {
    std::ofstream(dir / "good.json") << good.dump();
    LtCall c;
    c.M = c.N = c.K = 16;
    EXPECT_EQ(Resolver::load(dir / "good.json").resolve(c).refused, "no");
  }
  auto j = good;
  j["schema"] = "other";
  bad("schema.json", j);
  j = good;
  j["features"][0] = "M";
  bad("features.json", j);
  j = good;
  j["models"][0]["leaf_class"][0] = 3;  // no such class
  bad("leaf.json", j);
  j = good;
  j["models"][0]["feature"][0] = 0;  // an inner node whose children are not after it
  bad("children.json", j);
  j = good;
  j["models"][0]["left"] = {-1, -1};
  bad("lengths.json", j);
  j = good;
  j["models"][0]["leaf_support"] = {5, 6};
  bad("support.json", j);
  j = good;
  j["models"][0]["certainty"] = {{"support_edges", {1, 500}}, {"aligned", {0.5, 1.5}}, {"unaligned", {0.4, 0.98}},
                                 {"aligned_queries", {10, 20}}, {"unaligned_queries", {10, 20}}};
  bad("certainty.json", j);  // a certainty above 1
  std::filesystem::remove_all(dir);
}

// An answer states how sure it is: the certainty of its leaf's support bin and alignment class, read
// from the file's table (the fit measures it on held-back queries).
TEST(LtResolver, AnAnswerCarriesItsLeafsCertainty) {
  const auto dir = std::filesystem::temp_directory_path() / "mmaemu_lt_resolver_certainty";
  std::filesystem::create_directories(dir);
  // m <= 100: a leaf of 3 answers; m > 100: a leaf of 600.
  const nlohmann::json file = {
      {"schema", "mmaemu-cublaslt-resolver/2"},
      {"features", Resolver::feature_names()},
      {"workspaces", {33554432}},
      {"models", nlohmann::json::array({{{"a", "bf16"}, {"b", "bf16"},
                                         {"classes", {{{"refused", "small"}}, {{"refused", "large"}}}},
                                         {"feature", {0, -1, -1}}, {"threshold", {100.0, -2.0, -2.0}},
                                         {"left", {1, -1, -1}}, {"right", {2, -1, -1}}, {"leaf_class", {-1, 0, 1}},
                                         {"leaf_support", {0, 3, 600}},
                                         {"recorded", {{{"key", "fp32|TN|33554432|0|64|64|72"}, {"class", 1}}}},
                                         {"certainty", {{"support_edges", {1, 500}}, {"aligned", {0.5, 0.995}},
                                                        {"unaligned", {0.4, 0.98}}, {"aligned_queries", {10, 20}},
                                                        {"unaligned_queries", {11, 21}}}}}})}};
  std::ofstream(dir / "r.json") << file.dump();
  const Resolver r = Resolver::load(dir / "r.json");
  LtCall c;
  c.M = 64;
  c.N = c.K = 64;
  Resolution got = r.resolve(c);
  EXPECT_EQ(got.refused, "small");
  EXPECT_DOUBLE_EQ(got.certainty, 0.5);
  EXPECT_NE(got.basis.find("3 training answers"), std::string::npos) << got.basis;
  c.M = 1000;
  got = r.resolve(c);
  EXPECT_EQ(got.refused, "large");
  EXPECT_DOUBLE_EQ(got.certainty, 0.995);
  EXPECT_GE(got.certainty, kCertaintyGate);
  c.M = 1001;  // no multiple of 8: the unaligned class
  got = r.resolve(c);
  EXPECT_DOUBLE_EQ(got.certainty, 0.98);
  EXPECT_LT(got.certainty, kCertaintyGate);
  EXPECT_NE(got.basis.find("unaligned"), std::string::npos) << got.basis;
  c.M = 64;
  c.K = 72;  // recorded: its own answer (the tree would say "small"), certain
  EXPECT_EQ(Resolver::recorded_key(c), "fp32|TN|33554432|0|64|64|72");
  got = r.resolve(c);
  EXPECT_EQ(got.refused, "large");
  EXPECT_DOUBLE_EQ(got.certainty, 1.0);
  std::filesystem::remove_all(dir);
}

// PyTorch's recorded calls are answered as recorded, with certainty 1.
TEST(LtResolver, RecordedCallsAreCertain) {
  const Recording rec = read_recording(std::filesystem::path(MMAEMU_SOURCE_DIR) / "fixtures/torch-h200");
  size_t checked = 0;
  for (const RecordedCall& c : rec.calls) {
    const Resolution r = shipped().resolve(c.call);
    EXPECT_EQ(r.certainty, 1.0) << c.call.name() << ": " << r.basis;
    ++checked;
  }
  EXPECT_EQ(checked, 252u);
}

}  // namespace
}  // namespace mmaemu::lt
