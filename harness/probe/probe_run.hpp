// `mmaemu probe`: infer the block model of each instruction on the oracle (the GPU at hand), and write
//   <out>/profile.yaml        the inferred profile (mmaemu-profile: 1), evidence in comments
//   <out>/fixtures/probe/     every probe input and the oracle's D (fixture set; families probe-*)
//   <out>/fixtures/fresh/     a fresh random recording of each instruction (the independent check)
//   <out>/T2-probe.yaml       a tier file replaying both: mmaemu --profile <out>/profile.yaml run <out>/T2-probe.yaml
//   <out>/report.{md,json}    each parameter: value, how it was established, on how many inputs, and
//                             beside it the built-in profile's value for the same architecture
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu::probe {

struct ProbeRunOptions {
  std::vector<std::string> instructions;  // empty: every instruction the oracle can run
  std::filesystem::path out;
  uint64_t seed = 1;
  uint64_t fresh_seed = 0;                // 0: derived from seed
  int fresh_tiles_per_family = 0;         // 0: the recorder's default
  std::string oracle = "gpu";             // "gpu", or "reference" (the model of --arch: tests, dry runs)
  std::string arch;                       // the reference oracle's architecture
  int device = 0;
  std::string command_line;
  // Library kernels to probe instead of instructions ("bf16:66", "fp32:55:1": type, algorithm, custom
  // option); their report goes to <out>/cublaslt.md and cublaslt.json.
  std::vector<std::string> library_kernels;
};

// Exit status: 0 every instruction inferred and reproduced; 1 some parameter ambiguous or inconsistent,
// or a check missed (the report says which); 2 unusable input (no GPU, an instruction it lacks).
int run_probe(const ProbeRunOptions& options);

}  // namespace mmaemu::probe
