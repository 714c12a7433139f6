// T6 tier files: throughput, measured side by side. Three sections, each optional (at least one):
//   tier: T6
//   description: ...
//   reference:                 # CPU: dot-product-adds per second (Google Benchmark)
//     profiles: [all]          # or sm70 ... sm120
//     formats: [all]           # or fp16, bf16, tf32, e4m3, e5m2
//     threads: ["1", all]      # "all": every hardware thread
//     batch: 4096              # blocks per timed iteration
//     min_time_ms: 50          # per repetition
//     repetitions: 5           # samples of each rate
//     seed: 1
//   harness:                   # CPU: cases per second of tier suites, run as `mmaemu run` runs them
//     repetitions: 3
//     timeout_seconds: 300
//     suites:
//       - {tier: T2.yaml, suite: h200-fixtures}   # relative to this file
//   gemm:                      # GPU: TMAC/s of each backend beside cuBLASLt (CUDA events)
//     arch: sm90
//     family: wgmma            # or mma
//     formats: [fp16, bf16, tf32, e4m3, e5m2]
//     shapes: [256x256x256, 16x4096x4096, ...]
//     warmup: 2
//     samples: 20
//     seed: 1
//     native: true             # cuBLASLt beside
//     backends:
//       - {name: simt, max_case_seconds: 6}        # the budget: a case estimated over it is skipped
//       - {name: tc, n: 256}                     # wgmma at N = 256 (default 8; the same arithmetic per output)
//   mmasim:                    # CPU: instruction outputs per second beside MMA-Sim (bench/cpu/mmasim_bench.hpp)
//     arch: sm90
//     instructions: [mma.m16n8k16.f32.f16.f16.f32, ...]
//     tiles: 2000              # instruction tiles per timed pass
//     repetitions: 3
//     python: python3          # the interpreter that has mmasim and torch (MMAEMU_PYTHON overrides)
//     script: ../bench/cpu/mmasim_rate.py   # relative to this file
//     seed: 1
//   process:                   # CPU: whole programs as users start them (bench/cpu/process_bench.hpp)
//     arch: sm90
//     instructions: [mma.m16n8k16.f32.f16.f16.f32]   # `mmaemu mma` beside MMA-Sim's script, run whole
//     tiles: 2000              # instruction tiles in the files
//     repetitions: 5           # runs per row
//     python: python3
//     script: ../bench/cpu/mmasim_rate.py
//     seed: 1
//   model:                     # CPU and GPU: a model's forward natively and under emulate (bench/cpu/model_bench.hpp)
//     models: [fp8-mlp, llama-bf16, gpt2-bf16]
//     repetitions: 3
//     python: python3          # must import torch and mmaemu (MMAEMU_PYTHON overrides)
//     script: ../bench/cpu/model_rate.py
//   library:                   # CPU and GPU: the cuBLASLt model per engine beside cuBLASLt (bench/cpu/library_bench.hpp)
//     formats: [bf16, e4m3]
//     shapes: [256x256x2048]
//     split_k: ["1", "2"]
//     algorithm: 66            # absent: the type's default rules
//     engines: [host, cpu, cuda]
//     repetitions: 3
//     native: true
//     cpu_max_macs: 200000000  # the scalar CPU engines (reference, host) skip larger calls (with the reason)
//     lanes_max_macs: 5000000000   # the cpu engine (vector lanes) likewise
//     cpu_threads: ["1", all]  # the CPU engines' thread counts (default: all)
//     sgemm_script: ../bench/cpu/sgemm_rate.py   # numpy's sgemm beside, on as many threads (optional)
//     python: python3          # the interpreter that has numpy (MMAEMU_PYTHON overrides)
//     seed: 1
//   baseline:
//     min_drop_percent: 5      # see baseline.hpp: the rule that flags a regression
//   quick:                     # optional: the quick form (--quick; the main job and `ctest -L T6` run it):
//     reference: {...}         # the sections it lists, same schema, replace all of the above
//     harness: {...}
// Every key is schema-checked: unknown, misspelled, missing or mistyped keys are InputErrors at
// file:line:column.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/cpu/harness_rate.hpp"
#include "bench/cpu/library_bench.hpp"
#include "bench/cpu/mmasim_bench.hpp"
#include "bench/cpu/model_bench.hpp"
#include "bench/cpu/process_bench.hpp"
#include "bench/t6/t6_targets.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::t6 {

struct ReferenceSpec {
  bench::DotBenchOptions options;
  std::string where;  // "file:line:column" of the section
};

struct HarnessSpec {
  std::vector<bench::HarnessCase> cases;
  int repetitions = 3;
  double timeout_seconds = 600;
  std::string where;
};

struct GemmBackendSpec {
  std::string name;
  std::optional<double> max_case_seconds;
  int n = 0;  // the wgmma instruction's N; 0: bench_model's choice (N = 8)
};

struct GemmSpec {
  ref::Arch arch = ref::Arch::sm90;
  ref::InstrFamily family = ref::InstrFamily::wgmma;
  std::vector<ref::FormatId> formats;
  std::vector<kernels::GemmShape> shapes;  // sorted by MACs, smallest first (the budget's estimates need it)
  std::vector<GemmBackendSpec> backends;
  int warmup = 2;
  int samples = 20;
  uint64_t seed = 1;
  bool native = true;
  std::string where;
};

struct MmasimSpec {
  bench::MmasimBenchOptions options;  // scratch: set by the runner
  std::string where;
};

struct ProcessSpec {
  bench::ProcessBenchOptions options;  // mmaemu and scratch: set by the runner
  std::string where;
};

struct ModelSpec {
  bench::ModelBenchOptions options;  // scratch: set by the runner
  std::string where;
};

struct LibrarySpec {
  bench::LibraryBenchOptions options;  // without `native`: the runner sets it
  bool native = true;                  // cuBLASLt beside, where a GPU is present
  std::filesystem::path sgemm_script;  // the CPU's own sgemm beside (bench/cpu/sgemm_rate.py); empty: none
  std::string python = "python3";
  std::string where;
};

struct T6Spec {
  std::string tier;
  std::string description;
  std::filesystem::path file;
  std::optional<ReferenceSpec> reference;
  std::optional<HarnessSpec> harness;
  std::optional<GemmSpec> gemm;
  std::optional<MmasimSpec> mmasim;
  std::optional<ProcessSpec> process;
  std::optional<ModelSpec> model;
  std::optional<LibrarySpec> library;
  double min_drop_percent = 5;
  bool has_quick_form = false;
  T6Targets targets;  // the same in both forms
};

// The sections a T6 file may have, in the order a run takes them (the list every message names).
const std::vector<std::string>& section_names();
std::string section_list();  // "reference, mmasim, process, model, library, harness, gemm"
bool has_section(const T6Spec& spec, const std::string& section);

// Loads and schema-checks a T6 tier file (both forms). With `quick`, the sections are those of its
// quick form when it has one. Throws InputError at "file:line:column".
T6Spec load_t6(const std::filesystem::path& file, bool quick = false);

}  // namespace mmaemu::t6
