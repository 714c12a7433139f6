// T6's host-side pieces: the regression rule and the baseline comparison, the SVG plot, the tier
// file's schema. No GPU, no timing.
#include <gtest/gtest.h>

#include <set>

#include <fstream>

#include "harness/core/errors.hpp"
#include "bench/gemm_inputs.hpp"
#include "bench/t6/baseline.hpp"
#include "bench/t6/svg_plot.hpp"
#include "bench/t6/t6_report.hpp"
#include "bench/t6/t6_spec.hpp"
#include "bench/t6/tests/xml_check.hpp"

#ifndef MMAEMU_SOURCE_DIR
#error "MMAEMU_SOURCE_DIR must name the source tree"
#endif

namespace mmaemu::t6 {
namespace {

namespace fs = std::filesystem;

bench::SampleStats band(double p10, double median, double p90) {
  bench::SampleStats s;
  s.count = 20;
  s.p10 = s.min = p10;
  s.median = median;
  s.p90 = s.max = p90;
  return s;
}

TEST(Baseline, FlagsOnlyADropBeyondBothBandsAndTheFloor) {
  const auto before = band(9.8, 10, 10.2);
  EXPECT_TRUE(is_regression(before, band(8.8, 9, 9.2), 5));     // 10% down, bands apart
  EXPECT_FALSE(is_regression(before, band(8.8, 9, 9.9), 5));    // bands overlap: within the noise
  EXPECT_FALSE(is_regression(before, band(9.6, 9.65, 9.7), 5)); // apart, but 3.5% < 5%
  EXPECT_TRUE(is_regression(before, band(9.6, 9.65, 9.7), 3));
  EXPECT_FALSE(is_regression(before, band(11, 12, 13), 5));     // faster
}

RateRow row(const std::string& key, std::optional<bench::SampleStats> rate) {
  return {"gemm", key, key, "TMAC/s", rate ? "measured" : "skipped", "", rate};
}

TEST(Baseline, ComparesByKeyAndRoundTripsThroughJson) {
  const std::vector<RateRow> before{row("a", band(9.8, 10, 10.2)), row("b", band(1, 1, 1)), row("c", band(5, 5, 5)),
                                    row("d", std::nullopt)};
  const nlohmann::json report = {{"schema", kT6Schema}, {"rows", rows_json(before)}};
  const auto back = rows_from_json(report.at("rows"));
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[0].rate->p90, 10.2);
  EXPECT_FALSE(back[3].rate);

  const std::vector<RateRow> now{row("a", band(7, 7.5, 8)), row("b", band(1, 1.1, 1.2)), row("e", band(1, 1, 1))};
  const BaselineResult r = compare_with_baseline(now, report, "old.json", 5);
  ASSERT_EQ(r.compared.size(), 2u);
  EXPECT_EQ(r.compared[0].key, "a");
  EXPECT_TRUE(r.compared[0].regression);
  EXPECT_DOUBLE_EQ(r.compared[0].ratio, 0.75);
  EXPECT_FALSE(r.compared[1].regression);
  EXPECT_EQ(r.regressions(), 1u);
  EXPECT_EQ(r.not_measured_now, std::vector<std::string>{"c"});
  EXPECT_THROW(compare_with_baseline(now, nlohmann::json{{"schema", "mmaemu-report/1"}}, "x.json", 5), InputError);
  EXPECT_THROW(compare_with_baseline(now, nlohmann::json{{"schema", kT6Schema}}, "x.json", 5), InputError);
}

GemmPoint gemm_point(const std::string& backend, const std::string& format, const std::string& shape, double tmacs,
                     std::optional<double> ratio) {
  GemmPoint p;
  p.backend = backend;
  p.format = format;
  p.shape = shape;
  p.status = "measured";
  p.tmacs = band(tmacs, tmacs, tmacs);
  p.ratio = ratio;
  return p;
}

// The targets are the shipped tier file's (its `targets:` section), not constants of the report.
TEST(GpuTargets, EachTargetBesideItsMeasurementAndTheOnesNotRunSaySo) {
  T6Result r;
  r.targets = load_t6(fs::path(MMAEMU_SOURCE_DIR) / "tiers/T6.yaml").targets;
  EXPECT_EQ(gpu_targets_markdown(r), "");  // no GPU rows: no table
  GemmSectionResult g;
  g.points = {gemm_point("tc", "fp16", "4096x4096x4096", 96.8, 0.308), gemm_point("tc", "e4m3", "4096x4096x4096", 240, 0.52),
              gemm_point("tiled", "fp16", "4096x4096x4096", 0.18, 0.0006), gemm_point("tiled-fp64", "fp16", "4096x4096x4096", 2.4, 0.008),
              gemm_point("tiled-fp64", "fp16", "16x4096x4096", 0.31, 0.03)};
  GemmPoint declined;
  declined.backend = "tc";
  declined.format = "tf32";
  declined.shape = "4096x4096x4096";
  declined.status = "skipped";
  declined.reason = "over its budget";
  g.points.push_back(declined);
  r.gemm = g;
  bench::LibraryRow lib;
  lib.engine = "cuda";
  lib.format = "bf16";
  lib.shape = "4096x4096x4096";
  lib.status = "measured";
  lib.gmacs = band(40000, 40000, 40000);
  lib.vs_native = 0.125;
  r.library = std::vector<bench::LibraryRow>{lib};
  const std::string md = gpu_targets_markdown(r);
  EXPECT_NE(md.find("| tc / cuBLASLt, fp16 4096x4096x4096 (>= 50%) | 30.8% (96.8 TMAC/s) | not reached |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tc / cuBLASLt, e4m3 4096x4096x4096 (>= 50%) | 52.0% (240.0 TMAC/s) | reached |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tc / cuBLASLt, tf32 4096x4096x4096 (>= 50%) | skipped: over its budget | not measured |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tc / cuBLASLt, bf16 8192x8192x8192 (>= 50%) | not run | not measured |"), std::string::npos) << md;
  // The best of the CUDA-core backends counts: tiled-fp64 over tiled.
  EXPECT_NE(md.find("| best CUDA-core emulator, fp16 4096x4096x4096 (>= 2.0 TMAC/s) | tiled-fp64 2.400 TMAC/s | reached |"), std::string::npos) << md;
  EXPECT_NE(md.find("| best CUDA-core emulator, fp16 16x4096x4096 (>= 0.5 TMAC/s) | tiled-fp64 0.310 TMAC/s | not reached |"), std::string::npos) << md;
  EXPECT_NE(md.find("| best CUDA-core emulator, bf16 16x4096x4096 (>= 0.5 TMAC/s) | no CUDA-core backend measured | not measured |"), std::string::npos) << md;
  EXPECT_NE(md.find("| library model on the GPU / cuBLASLt, bf16 4096x4096x4096 split-K 1 (>= 25%) | 12.5% (40000.0 GMAC/s) | not reached |"), std::string::npos) << md;
  // Another figure in the file is another verdict; a file without targets shows none.
  r.targets.tc_vs_cublaslt->at_least = 0.3;
  EXPECT_NE(gpu_targets_markdown(r).find("| tc / cuBLASLt, fp16 4096x4096x4096 (>= 30%) | 30.8% (96.8 TMAC/s) | reached |"),
            std::string::npos);
  r.targets = T6Targets{};
  EXPECT_EQ(gpu_targets_markdown(r), "");
}

TEST(SvgPlot, IsWellFormedXmlWithALinePerSeries) {
  Plot p;
  p.title = "rates <&> \"quoted\"";
  p.x_label = "MACs";
  p.y_label = "TMAC/s";
  p.panels.push_back({"fp16", {{"tiled", {{1e7, 0.1}, {1e9, 0.3}, {1e11, 0.33}}, true, false},
                               {"cublaslt", {{1e7, 2}, {1e9, 200}, {1e11, 310}}, true, true},
                               {"tiled (other shapes)", {{3e8, 0.2}}, false, false}}});
  p.panels.push_back({"bf16 & co", {}});
  const std::string svg = render_svg_loglog(p);
  const auto check = test::check_xml(svg);
  ASSERT_TRUE(check.ok) << check.error;
  EXPECT_EQ(check.elements.at("svg"), 1u);
  EXPECT_EQ(check.elements.at("polyline"), 2u);  // the two line series; markers-only draws none
  EXPECT_EQ(check.elements.at("circle"), 7u);
  EXPECT_NE(svg.find("no measurements"), std::string::npos);
  EXPECT_NE(svg.find("&lt;&amp;&gt;"), std::string::npos);
  // The checker itself must notice what the writer is meant to avoid.
  EXPECT_FALSE(test::check_xml("<svg><text>a < b</text></svg>").ok);
  EXPECT_FALSE(test::check_xml("<svg><g></svg>").ok);
  EXPECT_FALSE(test::check_xml("<svg a=1/>").ok);
  EXPECT_FALSE(test::check_xml("<svg>&nbsp;</svg>").ok);
}

class TierFile : public ::testing::Test {
 protected:
  fs::path write(const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("mmaemu-t6-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path f = dir / "T6-test.yaml";
    std::ofstream(f) << text;
    return f;
  }
  // The InputError's message, or "" when the file loads.
  std::string error_of(const std::string& text) {
    try {
      load_t6(write(text));
      return "";
    } catch (const InputError& e) {
      return e.what();
    }
  }
};

TEST_F(TierFile, ShippedFilesLoad) {
  const T6Spec full = load_t6(fs::path(MMAEMU_SOURCE_DIR) / "tiers/T6.yaml");
  ASSERT_TRUE(full.reference && full.harness && full.gemm);
  EXPECT_GE(full.gemm->samples, 20);
  for (size_t i = 1; i < full.gemm->shapes.size(); ++i)  // smallest first: the budget's estimates need it
    EXPECT_LE(full.gemm->shapes[i - 1].M * full.gemm->shapes[i - 1].N * full.gemm->shapes[i - 1].K,
              full.gemm->shapes[i].M * full.gemm->shapes[i].N * full.gemm->shapes[i].K);
  for (const auto& b : full.gemm->backends) EXPECT_TRUE(b.max_case_seconds) << b.name << " has a budget";
  EXPECT_TRUE(full.has_quick_form);
  EXPECT_EQ(full.reference->options.repetitions, 5) << "the full form, not the quick one";
  ASSERT_TRUE(full.mmasim);
  EXPECT_EQ(full.mmasim->options.instructions.front(), "mma.m16n8k16.f32.f16.f16.f32") << "the target's instruction";
  EXPECT_TRUE(fs::exists(full.mmasim->options.script));
  const T6Spec quick = load_t6(fs::path(MMAEMU_SOURCE_DIR) / "tiers/T6.yaml", true);
  ASSERT_TRUE(quick.reference && quick.harness && quick.gemm && quick.mmasim && quick.process);
  ASSERT_TRUE(full.process && full.model && quick.model);
  EXPECT_LT(quick.model->options.models.size(), full.model->options.models.size());
  // The library section's CPU engines run on one thread and on all, beside numpy's sgemm.
  ASSERT_TRUE(full.library && quick.library);
  EXPECT_EQ(full.library->options.cpu_threads, (std::vector<int>{1, 0}));
  EXPECT_TRUE(fs::exists(full.library->sgemm_script));
  EXPECT_LT(quick.process->options.tiles, full.process->options.tiles);
  EXPECT_LT(quick.mmasim->options.tiles, full.mmasim->options.tiles);
  EXPECT_LT(quick.reference->options.min_seconds, full.reference->options.min_seconds);
  EXPECT_LT(quick.gemm->samples, full.gemm->samples);
  // The targets are read in both forms, and each the report shows is there.
  for (const T6Spec* s : {&full, &quick}) {
    ASSERT_TRUE(s->targets.reference && s->targets.cpu && s->targets.cpu_vs_mmasim && s->targets.tc_vs_cublaslt &&
                s->targets.cuda_core_tmacs && s->targets.library_gpu_vs_cublaslt && s->targets.startup &&
                s->targets.process_vs_mmasim && s->targets.cpu_library_vs_sgemm && s->targets.model_slowdown);
    EXPECT_EQ(s->targets.startup->seconds_at_most, 0.010);
    EXPECT_EQ(s->targets.reference->at_least, 20e6);
    EXPECT_EQ(s->targets.cuda_core_tmacs->shapes.size(), 2u);
  }
}

TEST_F(TierFile, ErrorsNameFileLineAndColumn) {
  const std::string ok_gemm = "gemm:\n  arch: sm90\n  formats: [fp16]\n  shapes: [256x256x256]\n  backends:\n    - {name: simt}\n";
  EXPECT_EQ(error_of("tier: T6\n" + ok_gemm), "");
  EXPECT_NE(error_of("tier: T6\n" + ok_gemm + "targets:\n  cpu: {row: dot/sm90/fp16/cpu/t1, at_least: fast}\n")
                .find("T6-test.yaml:9:46: 'at_least' is a positive number"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\n" + ok_gemm + "targets:\n  gpu: {row: x, at_least: 1}\n").find(":9:3: unknown key 'gpu'"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\n" + ok_gemm + "  sampels: 20\n").find("T6-test.yaml:8:3: unknown key 'sampels'"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\n" + ok_gemm + "  samples: many\n").find(":8:12: 'samples' must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\n" + ok_gemm + "  samples: 1\n").find(":8:12: 'samples' must be from 2"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\ngemm:\n  arch: sm90\n  formats: [fp16]\n  shapes: [256x256]\n  backends: [{name: simt}]\n")
                .find(":5:11:"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\ngemm:\n  arch: sm91\n  formats: [fp16]\n  shapes: [8x8x8]\n  backends: [{name: simt}]\n")
                .find(":3:9: unknown architecture 'sm91'"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\nreference:\n  profiles: [all]\n  formats: [fp8]\n").find(":4:12: unknown operand format 'fp8'"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\nreference:\n  profiles: [all]\n  formats: [all]\n  threads: [\"0\"]\n").find(":5:12:"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\nharness:\n  suites:\n    - {tier: nowhere.yaml, suite: x}\n").find(":4:14: tier file not found"),
            std::string::npos);
  EXPECT_NE(error_of("tier: T6\ndescription: nothing\n").find("at least one of the sections"), std::string::npos);
}


TEST_F(TierFile, MmasimSectionIsChecked) {
  const std::string head = "tier: T6\nmmasim:\n  arch: sm90\n";
  const std::string script = "  script: " + (fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/mmasim_rate.py").string() + "\n";
  EXPECT_EQ(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n" + script), "");
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k99.f32.f16.f16.f32]\n" + script)
                .find(":4:17: no instruction mma.m16n8k99.f32.f16.f16.f32 on sm90"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n  script: nowhere.py\n").find(":5:11:"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n" + script + "  tiles: 0\n")
                .find("'tiles' must be from 1"),
            std::string::npos);
}

// The section's rows without MMA-Sim: the backends measured and equal to the reference, MMA-Sim's row
// skipped with the reason (an interpreter that cannot be started), or an error when its script fails.
TEST(MmasimSection, BackendsMeasuredAndMmasimSkippedOrFailedWithTheReason) {
  const fs::path scratch = fs::temp_directory_path() / ("mmaemu-mmasim-" + std::to_string(::getpid()));
  bench::MmasimBenchOptions o;
  o.instructions = {"mma.m16n8k16.f32.bf16.bf16.f32"};
  o.tiles = 8;
  o.repetitions = 2;
  o.script = fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/mmasim_rate.py";
  o.scratch = scratch;
  o.python = (scratch / "no-such-python").string();
  ::unsetenv("MMAEMU_PYTHON");
  const auto rows = bench::run_mmasim_bench(o, nullptr);
  ASSERT_GE(rows.size(), 4u);
  for (const auto& r : rows) {
    if (r.implementation == bench::kMmasim) {
      EXPECT_EQ(r.status, "skipped");
      EXPECT_NE(r.reason.find("no Python to run MMA-Sim"), std::string::npos) << r.reason;
    } else {
      EXPECT_EQ(r.status, "measured") << r.implementation << ": " << r.reason;
      EXPECT_EQ(r.outputs, 8u * 16 * 8);
      EXPECT_EQ(r.samples.size(), 2u);
    }
  }
  // A script that fails: the row is an error naming the log, never a rate.
  fs::create_directories(scratch);
  std::ofstream(scratch / "fails.py") << "import sys\nsys.exit(5)\n";
  o.script = scratch / "fails.py";
  o.python = "python3";
  const auto failed = bench::run_mmasim_bench(o, nullptr);
  EXPECT_EQ(failed.back().implementation, bench::kMmasim);
  EXPECT_EQ(failed.back().status, "error");
  EXPECT_NE(failed.back().reason.find("mmasim.log"), std::string::npos) << failed.back().reason;
  fs::remove_all(scratch);
}

TEST_F(TierFile, ProcessSectionAndItsTargetsAreChecked) {
  const std::string head = "tier: T6\nprocess:\n  arch: sm90\n";
  const std::string script = "  script: " + (fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/mmasim_rate.py").string() + "\n";
  EXPECT_EQ(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n" + script), "");
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k99.f32.f16.f16.f32]\n" + script)
                .find(":4:17: no instruction mma.m16n8k99.f32.f16.f16.f32 on sm90"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n" + script + "  repetitions: 0\n")
                .find(":6:16: 'repetitions' must be from 1"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  instructions: [mma.m16n8k16.f32.f16.f16.f32]\n" + script +
                     "targets:\n  startup: {row: process/start/mmaemu, seconds_at_most: 0.01}\n")
                .find(":7:12: target startup lacks the required key 'rss_mb_at_most'"),
            std::string::npos);
}

// Whole processes without MMA-Sim: the start-up and `mmaemu mma` measured (its D equal to the
// reference's), MMA-Sim's row skipped with the reason; a program that fails makes its row an error
// naming the log, never a rate.
TEST(ProcessSection, StartAndMmaMeasuredMmasimSkippedAFailureIsAnError) {
  const fs::path scratch = fs::temp_directory_path() / ("mmaemu-process-" + std::to_string(::getpid()));
  bench::ProcessBenchOptions o;
  o.mmaemu = MMAEMU_BIN;
  o.instructions = {"mma.m16n8k16.f32.bf16.bf16.f32"};
  o.tiles = 8;
  o.repetitions = 2;
  o.script = fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/mmasim_rate.py";
  o.scratch = scratch;
  o.python = (scratch / "no-such-python").string();
  ::unsetenv("MMAEMU_PYTHON");
  const auto rows = bench::run_process_bench(o, nullptr);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key(), "process/start/mmaemu");
  EXPECT_EQ(rows[1].key(), "process/mma/sm90/mma.m16n8k16.f32.bf16.bf16.f32/mmaemu");
  for (size_t i : {0, 1}) {
    EXPECT_EQ(rows[i].status, "measured") << rows[i].key() << ": " << rows[i].reason;
    EXPECT_EQ(rows[i].seconds.size(), 2u);
    ASSERT_TRUE(rows[i].rate && rows[i].peak_rss_mb);
    EXPECT_GT(*rows[i].peak_rss_mb, 0.0);
  }
  EXPECT_EQ(rows[1].outputs, 8u * 16 * 8);
  EXPECT_EQ(rows[2].implementation, "mmasim");
  EXPECT_EQ(rows[2].status, "skipped");
  EXPECT_NE(rows[2].reason.find("no Python to run MMA-Sim"), std::string::npos) << rows[2].reason;
  o.mmaemu = "/bin/false";
  o.instructions.clear();
  const auto failed = bench::run_process_bench(o, nullptr);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].status, "error");
  EXPECT_FALSE(failed[0].rate);
  EXPECT_NE(failed[0].reason.find("exit 1 (log: "), std::string::npos) << failed[0].reason;
  fs::remove_all(scratch);
}

TEST_F(TierFile, ModelSectionIsChecked) {
  const std::string head = "tier: T6\nmodel:\n";
  const std::string script = "  script: " + (fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/model_rate.py").string() + "\n";
  EXPECT_EQ(error_of(head + "  models: [fp8-mlp, llama-bf16]\n" + script), "");
  EXPECT_NE(error_of(head + "  models: [bert]\n" + script).find(":3:11: unknown model 'bert'"), std::string::npos);
  EXPECT_NE(error_of(head + "  models: [fp8-mlp]\n  script: nowhere.py\n").find(":4:11:"), std::string::npos);
}

// Without an interpreter every model's rows on every device are skipped with the reason, never measured.
TEST(ModelSection, WithoutPythonEveryRowIsSkippedWithTheReason) {
  const fs::path scratch = fs::temp_directory_path() / ("mmaemu-model-" + std::to_string(::getpid()));
  bench::ModelBenchOptions o;
  o.models = {"fp8-mlp", "gpt2-bf16"};
  o.script = fs::path(MMAEMU_SOURCE_DIR) / "bench/cpu/model_rate.py";
  o.scratch = scratch;
  o.python = (scratch / "no-such-python").string();
  ::unsetenv("MMAEMU_PYTHON");
  const auto rows = bench::run_model_bench(o, nullptr);
  ASSERT_EQ(rows.size(), 2u * 2 * 2);
  for (const auto& r : rows) {
    EXPECT_EQ(r.status, "skipped") << r.key();
    EXPECT_FALSE(r.rate);
    EXPECT_NE(r.reason.find("no Python to run the models"), std::string::npos) << r.reason;
  }
  EXPECT_EQ(rows[1].key(), "model/fp8-mlp/cpu/emulate:cpu");
  fs::remove_all(scratch);
}

TEST_F(TierFile, LibrarySectionIsChecked) {
  const std::string head = "tier: T6\nlibrary:\n  formats: [bf16]\n  shapes: [64x64x512]\n";
  EXPECT_EQ(error_of(head + "  engines: [host, cpu]\n  split_k: [\"1\", \"3\"]\n  algorithm: 66\n"), "");
  EXPECT_NE(error_of(head + "  engines: [host, gpu]\n").find(":5:12: unknown library engine 'gpu'"), std::string::npos);
  EXPECT_NE(error_of(head + "  engines: [host, host]\n").find("listed twice"), std::string::npos);
  EXPECT_NE(error_of(head + "  engines: [cpu]\n  cpu_threads: [\"0\"]\n").find(":6:16: 'cpu_threads' holds '0'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  engines: [cpu]\n  sgemm_script: nowhere.py\n").find(":6:17:"), std::string::npos);
  EXPECT_NE(error_of(head + "  engines: [host]\n  split_k: [\"0\"]\n").find(":6:12: split_k entries are 1 to 64"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  engines: [host]\n  sk: [\"1\"]\n").find(":6:3: unknown key 'sk'"), std::string::npos);
  const T6Spec full = load_t6(fs::path(MMAEMU_SOURCE_DIR) / "tiers/T6.yaml");
  ASSERT_TRUE(full.library);
  EXPECT_GT(full.library->options.cpu_max_macs, 0) << "the host engine would take minutes at 4096^3";
  ASSERT_TRUE(load_t6(fs::path(MMAEMU_SOURCE_DIR) / "tiers/T6.yaml", true).library);
}

// The section's rows on the CPU: host and cpu measured with equal D, cuda declined without a device (or
// measured with one), cuBLASLt skipped with the reason a timer gives; a call larger than cpu_max_macs is
// skipped for the CPU engines; a call the model refuses is an InputError before anything runs.
TEST(LibrarySection, EnginesMeasuredWithEqualBitsAndTheOthersSayWhy) {
  bench::LibraryBenchOptions o;
  o.formats = {ref::FormatId::bf16, ref::FormatId::e4m3};
  o.shapes = {{1, 24, 40, 304}, {1, 64, 64, 2048}};
  o.split_k = {1, 2};
  o.algorithm = 66;
  o.engines = {kernels::LibraryEngine::host, kernels::LibraryEngine::cpu, kernels::LibraryEngine::cuda};
  o.repetitions = 2;
  o.cpu_max_macs = o.lanes_max_macs = 24.0 * 40 * 304;
  o.cpu_threads = {1, 0};
  o.native = [](ref::FormatId, const kernels::GemmShape&) {
    bench::NativeLibraryRate r;
    r.why = "no native library in this test";
    return r;
  };
  // A CPU BLAS whose rate is 1e-6 GMAC/s at the first shape and absent at the second.
  o.cpu_blas = [](const std::vector<kernels::GemmShape>& shapes, int) {
    bench::CpuBlasRates r;
    r.gmacs[bench::shape_name(shapes.front())] = bench::summarize({1e-6});
    r.why = "not measured in this test";
    r.name = "test BLAS";
    return r;
  };
  const auto rows = bench::run_library_bench(o, nullptr);
  ASSERT_EQ(rows.size(), 2u * 2 * 2 * 6 + 2 * 2);
  std::set<std::string> keys;
  for (const auto& r : rows) {
    keys.insert(r.key());
    if (r.engine == bench::kLibraryNative) {
      EXPECT_EQ(r.status, "skipped");
      EXPECT_EQ(r.reason, "no native library in this test");
    } else if (r.engine == bench::kLibraryCpuBlas) {
      EXPECT_EQ(r.status, r.shape == "24x40x304" ? "measured" : "skipped") << r.shape;
      if (!r.gmacs) EXPECT_EQ(r.reason, "not measured in this test");
    } else if (r.engine == "cuda") {
      EXPECT_TRUE(r.status == "declined" || r.status == "measured") << r.status << ": " << r.reason;
    } else if (r.shape == "64x64x2048") {
      EXPECT_EQ(r.status, "skipped");
      EXPECT_NE(r.reason.find(r.engine == "cpu" ? "lanes_max_macs" : "cpu_max_macs"), std::string::npos) << r.reason;
    } else {
      EXPECT_EQ(r.status, "measured") << r.engine << ": " << r.reason;
      ASSERT_TRUE(r.gmacs);
      EXPECT_GT(r.gmacs->median, 0);
      EXPECT_EQ(r.gmacs->count, 2u);
      ASSERT_TRUE(r.vs_cpu_blas) << r.key() << ": beside the BLAS on as many threads";
      EXPECT_GT(*r.vs_cpu_blas, 1.0);
    }
  }
  EXPECT_EQ(keys.size(), rows.size()) << "keys are unique";
  EXPECT_EQ(rows.front().key(), "library/bf16/24x40x304/algo66/sk1/host/t1");
  EXPECT_EQ(rows[1].key(), "library/bf16/24x40x304/algo66/sk1/host");
  EXPECT_EQ(rows.back().key(), "library/sgemm/64x64x2048");
  o.formats = {ref::FormatId::fp64};
  EXPECT_THROW(bench::run_library_bench(o, nullptr), InputError);
}

}  // namespace
}  // namespace mmaemu::t6
