// Recordings: what the recorder writes, the replay reads back; regenerated operands are checked.
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_plan.hpp"
#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu::lt {
namespace {

TEST(LtRecording, RoundTripsAndChecksTheOperandsHash) {
  const auto dir = std::filesystem::temp_directory_path() / "mmaemu_lt_recording_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "d");
  LtCall call;
  call.a = call.b = ref::FormatId::bf16;
  call.c = call.d = ref::FormatId::bf16;
  call.M = 5;
  call.N = 3;
  call.K = 200;
  call.alpha = -1.25f;
  call.beta = 0.75f;
  LtAlgoConfig config;
  config.algo_id = 66;
  config.split_k = 2;
  config.stages_name = "64xAUTO";
  const LtOperands ops = generate_operands(call, gen::Family::realistic, 42);
  const auto d = model_d(call, config, ops);

  Recording rec;
  rec.dir = dir;
  rec.plan = "test";
  rec.workspace_bytes = 1024;
  rec.provenance = {{"gpu", "none"}};
  RecordedCall rc;
  rc.id = 0;
  rc.call = call;
  rc.family = gen::Family::realistic;
  rc.seed = 42;
  rc.operands_sha256 = operands_sha256(call, ops);
  rc.heuristic = {config};
  RecordedRun run;
  run.config = config;
  run.d_file = "d/0-0.npy";
  write_d(dir / run.d_file, call, d);
  rc.runs = {run};
  rec.calls = {rc};
  write_recording(rec);

  const Recording back = read_recording(dir);
  ASSERT_EQ(back.calls.size(), 1u);
  const RecordedCall& c = back.calls[0];
  EXPECT_EQ(c.call.K, 200u);
  EXPECT_FLOAT_EQ(c.call.alpha, -1.25f);
  EXPECT_EQ(c.runs[0].config, config);
  EXPECT_EQ(read_d(dir / c.runs[0].d_file, c.call), d);
  EXPECT_EQ(operands_of(back, c).a, ops.a);

  // Another seed gives other operands: the hash check refuses them instead of replaying them.
  Recording tampered = back;
  tampered.calls[0].seed = 43;
  EXPECT_THROW(operands_of(tampered, tampered.calls[0]), InputError);
}

TEST(LtRecording, AMissingFileIsAnInputError) {
  EXPECT_THROW(read_recording(std::filesystem::temp_directory_path() / "mmaemu_no_such_recording"), InputError);
}

// A replay whose every call was refused compared refusal verdicts only: an error, not a pass.
TEST(LtModel, RefusalsAloneAreNoComparison) {
  SuiteResult only_refusals;
  only_refusals.compared = 3;
  only_refusals.groups["refusals"].compared = 3;
  set_verdict_from_counts(only_refusals);
  ASSERT_EQ(only_refusals.verdict, Verdict::pass);
  require_library_outputs(only_refusals);
  EXPECT_EQ(only_refusals.verdict, Verdict::error);
  EXPECT_EQ(only_refusals.reason, "no library output was compared (only 3 refusal verdicts)");

  SuiteResult with_outputs;
  with_outputs.compared = 3 + 64;
  with_outputs.groups["refusals"].compared = 3;
  with_outputs.groups["gemm"].compared = 64;
  set_verdict_from_counts(with_outputs);
  require_library_outputs(with_outputs);
  EXPECT_EQ(with_outputs.verdict, Verdict::pass) << with_outputs.reason;
}

}  // namespace
}  // namespace mmaemu::lt
