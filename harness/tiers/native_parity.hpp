// Suite kind "native-parity" (tier T3p, GPU only): live parity with the GPU's own tensor cores. Fresh
// random inputs (seeded, from the input families) go through the GPU's native mma.sync / wgmma (the
// recorder's kernels, harness/record/gpu_run.hpp), through the reference and through every backend;
// the reference and every backend must give the GPU's bits.
//   - name: t3p-h200
//     kind: native-parity
//     labels: [T3p, gpu]
//     profile: sm90            # the suite skips, with the reason, unless the GPU is this architecture
//     backends: [all]          # as in kernel-conformance; the reference is always compared
//     instructions: [all]      # the recorder's instructions that the profile has (filters as in T3)
//     families: [all]
//     tiles: 512               # per family and instruction (default: the recorder's, >= 50,000 outputs)
//     seed: 7                  # absent: a fresh seed from the clock, named in the reason
//     require: [simt]
// Groups: "<backend or reference>/<profile>/<instruction>/<family>", expected = the GPU's D.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

// The GPU's own instructions, as the suite sees them (a real device, or a stand-in in tests).
struct NativeGpu {
  std::string name;  // "NVIDIA H200"
  int sm = 0;        // compute capability x 10: 90
  // Whether it can run `instr` natively (else *why says why not).
  std::function<bool(const std::string& instr, std::string* why)> has;
  // Runs `tiles` tiles of `instr` (contract layout, raw bits widened to 32 bits) into d (resized);
  // returns "" or an error carrying CUDA's message.
  std::function<std::string(const ref::Instruction& instr, size_t tiles, const std::vector<uint32_t>& a,
                            const std::vector<uint32_t>& b, const std::vector<uint32_t>& c, std::vector<uint32_t>& d)>
      run;
};

// Device 0 through the recorder's kernels, or why there is none ("built without CUDA", CUDA's message).
std::optional<NativeGpu> open_native_gpu(std::string* why_not);

SuiteKind native_parity_kind();

// Runs a native-parity suite on `gpu` (nullopt: skip with `why_not`) with the backends of `available`.
SuiteResult run_native_parity(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available,
                              const std::optional<NativeGpu>& gpu, const std::string& why_not);

}  // namespace mmaemu
