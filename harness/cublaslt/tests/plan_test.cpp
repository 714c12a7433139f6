// Recording plans: the product of a group's lists, and errors at the offending value's line and column.
#include <gtest/gtest.h>

#include <filesystem>
#include <algorithm>
#include <fstream>

#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_plan.hpp"

namespace mmaemu::lt {
namespace {

std::filesystem::path write_plan(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "mmaemu_lt_plan_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / name;
  std::ofstream(file) << text;
  return file;
}

TEST(LtPlan, ExpandsEveryGroupAsTheProductOfItsLists) {
  const auto file = write_plan("good.yaml", R"(plan: t
seed: 3
heuristic_results: 2
groups:
  - name: g16
    types: ["bf16 bf16 fp32 32F", "fp16 fp16 fp16 32F"]
    shapes: [16x16x64, 8x24x1000]
    scalars: ["1 0", "-1.25 0.75"]
    families: [realistic, cancellation]
  - name: g8
    types: ["e4m3 e5m2 bf16 32F"]
    shapes: [64x64x64]
    scalars: ["1 0"]
    scales: ["1 1", "0.3 1.7"]
    fast_accum: [false, true]
    families: [realistic]
    run: false
)");
  const LtPlan plan = load_plan(file);
  EXPECT_EQ(plan.heuristic_results, 2);
  ASSERT_EQ(plan.calls.size(), 2u * 2 * 2 * 2 + 2 * 2);
  const PlannedCall& first = plan.calls.front();
  EXPECT_EQ(first.call.a, ref::FormatId::bf16);
  EXPECT_EQ(first.call.d, ref::FormatId::fp32);
  EXPECT_EQ(first.call.c, first.call.d);
  EXPECT_EQ(first.call.K, 64u);
  const PlannedCall& last = plan.calls.back();
  EXPECT_TRUE(last.call.is_fp8());
  EXPECT_TRUE(last.call.fast_accum);
  EXPECT_FLOAT_EQ(last.call.scale_b, 1.7f);
  EXPECT_FALSE(last.run);
  // Seeds differ from call to call, and the same plan gives the same seeds.
  EXPECT_NE(plan.calls[0].seed, plan.calls[1].seed);
  EXPECT_EQ(load_plan(file).calls[5].seed, plan.calls[5].seed);
}

TEST(LtPlan, ErrorsNameTheFileLineAndColumn) {
  const auto bad_shape = write_plan("bad_shape.yaml", R"(plan: t
groups:
  - name: g
    types: ["bf16 bf16 fp32 32F"]
    shapes: [16x16]
    scalars: ["1 0"]
    families: [realistic]
)");
  try {
    load_plan(bad_shape);
    FAIL() << "a shape without K was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad_shape.yaml:5:14"), std::string::npos) << e.what();
  }
  const auto bad_key = write_plan("bad_key.yaml", R"(plan: t
groups:
  - name: g
    typo: 1
    types: ["bf16 bf16 fp32 32F"]
    shapes: [16x16x16]
    scalars: ["1 0"]
    families: [realistic]
)");
  EXPECT_THROW(load_plan(bad_key), InputError);
  const auto bad_type = write_plan("bad_type.yaml", R"(plan: t
groups:
  - name: g
    types: ["bf16 bf16 fp32 64F"]
    shapes: [16x16x16]
    scalars: ["1 0"]
    families: [realistic]
)");
  try {
    load_plan(bad_type);
    FAIL() << "an unknown compute type was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad_type.yaml:4:13"), std::string::npos) << e.what();
  }
}

TEST(LtPlan, ForcedConfigurationsAreReadAndChecked) {
  const auto good = write_plan("forced.yaml", R"(plan: t
groups:
  - name: g
    types: ["fp32 fp32 fp32 32F"]
    shapes: [96x80x512]
    scalars: ["1 0"]
    families: [pair_probe]
    configs:
      algo: 55
      split_k: [2, 3]
      custom: [0, 1]
)");
  const LtPlan plan = load_plan(good);
  ASSERT_EQ(plan.calls.size(), 1u);
  ASSERT_TRUE(plan.calls[0].forced.has_value());
  EXPECT_EQ(plan.calls[0].forced->algo, 55);
  EXPECT_EQ(plan.calls[0].forced->split_k, (std::vector<int>{2, 3}));
  EXPECT_EQ(plan.calls[0].forced->custom, (std::vector<int>{0, 1}));
  EXPECT_EQ(plan.calls[0].family, gen::Family::pair_probe);
  const auto bad = write_plan("forced_bad.yaml", R"(plan: t
groups:
  - name: g
    types: ["fp32 fp32 fp32 32F"]
    shapes: [96x80x512]
    scalars: ["1 0"]
    families: [realistic]
    configs:
      algo: 55
      split_k: [0]
      custom: [0]
)");
  try {
    load_plan(bad);
    FAIL() << "split-K 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("forced_bad.yaml:10:17"), std::string::npos) << e.what();
  }
}

TEST(LtPlan, HeuristicSweepsTakeGridsLayoutsAndWorkspaces) {
  const auto good = write_plan("sweep.yaml", R"(plan: t
groups:
  - name: sweep
    types: ["bf16 bf16 fp32 32F"]
    shape_grid: {M: [1, 16], N: [4096], K: [128, 4096, 16384]}
    scalars: ["1 0"]
    families: [realistic]
    run: false
    table_only: true
    layouts: [TN, NN, NT]
    workspaces: [0, 1048576]
)");
  const LtPlan plan = load_plan(good);
  ASSERT_EQ(plan.calls.size(), 2u * 1 * 3 * 3 * 2);
  EXPECT_TRUE(plan.calls[0].table_only);
  EXPECT_EQ(plan.calls[0].call.layout, Layout::tn);
  EXPECT_EQ(plan.calls[0].call.max_workspace, 0u);
  EXPECT_EQ(plan.calls[1].call.max_workspace, 1048576u);
  EXPECT_EQ(plan.calls[2].call.layout, Layout::nn);
  EXPECT_EQ(plan.calls.back().call.M, 16u);
  EXPECT_EQ(plan.calls.back().call.K, 16384u);
  EXPECT_EQ(plan.calls.back().call.layout, Layout::nt);
  // A group that runs NN calls loads (`record --inputs-only` writes their operands for a client such as
  // PyTorch to run; the recorder itself runs TN calls only and refuses the plan).
  const auto runs_nn = write_plan("sweep_nn.yaml", R"(plan: t
groups:
  - name: g
    types: ["bf16 bf16 fp32 32F"]
    shapes: [16x16x64]
    scalars: ["1 0"]
    families: [realistic]
    layouts: [NN]
)");
  const LtPlan nn = load_plan(runs_nn);
  ASSERT_EQ(nn.calls.size(), 1u);
  EXPECT_TRUE(nn.calls[0].run);
  EXPECT_EQ(nn.calls[0].call.layout, Layout::nn);
  // The shipped sweep loads: grids for the fit, held-out shapes for the test.
  const LtPlan shipped = load_plan(std::filesystem::path(MMAEMU_SOURCE_DIR) / "fixtures/cublaslt-h200/plan-heuristic.yaml");
  EXPECT_GT(shipped.calls.size(), 100000u);
  EXPECT_TRUE(std::all_of(shipped.calls.begin(), shipped.calls.end(), [](const PlannedCall& p) { return p.table_only; }));
}

TEST(LtPlan, HeuristicSweepsAskBatchedAndBiasCallsButRunNone) {
  const auto good = write_plan("batched.yaml", R"(plan: t
groups:
  - name: sweep
    types: ["bf16 bf16 bf16 32F"]
    shapes: [77x77x64]
    scalars: ["1 0"]
    families: [realistic]
    run: false
    table_only: true
    batches: [1, 24]
    epilogues: [none, bias]
)");
  const LtPlan plan = load_plan(good);
  ASSERT_EQ(plan.calls.size(), 4u);
  EXPECT_EQ(plan.calls[0].call.batch, 1u);
  EXPECT_FALSE(plan.calls[0].call.bias);
  EXPECT_TRUE(plan.calls[1].call.bias);
  EXPECT_EQ(plan.calls[3].call.batch, 24u);
  EXPECT_TRUE(plan.calls[3].call.bias);
  // The recorder runs plain calls only: a group that would run batched calls is an error at its line.
  const auto runs = write_plan("batched_run.yaml", R"(plan: t
groups:
  - name: g
    types: ["bf16 bf16 fp32 32F"]
    shapes: [16x16x64]
    scalars: ["1 0"]
    families: [realistic]
    batches: [2]
)");
  try {
    load_plan(runs);
    FAIL() << "a run group with batches loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("batched_run.yaml:8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("table_only"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mmaemu::lt
