// `mmaemu probe --cublaslt`: a library kernel's rules inferred from its outputs, as the instruction
// probe does it (infer.hpp): experiments built so that one group of rules decides the bits, every
// candidate rule computed through the library model (ref::library_gemm_planned), the survivors kept.
//   main loop: which instruction each K slice chains (or an FMA chain), the FP8 promotion interval;
//   split-K:   how K is cut into slices (consecutive chunks in grains, or interleaved blocks) and the
//              order the slices' partials are added in;
//   epilogue:  fma(alpha', acc, beta*C) or fma(beta, C, alpha'*acc), with and without split-K, and
//              how FP8 scales fold into alpha.
// Inputs: A rows of small values with a cancelling pair of large products at chosen k, B of small
// values and large ones at those k, so that which small products survive reads the accumulation order
// off the bits (FPRev's idea; mmaemu's pair_probe family); then random operands for the epilogue and a
// fresh random call, at another K and split-K, for the check.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "harness/probe/infer.hpp"
#include "harness/probe/library_oracle.hpp"

namespace mmaemu::probe {

struct LibraryKernel {
  ref::FormatId type = ref::FormatId::bf16;  // A and B (tf32: fp32 storage, 32F_FAST_TF32)
  int algo_id = 66;
  int custom = 0;
  std::string name() const;  // "bf16 algorithm 66", "fp32 algorithm 55 custom 1"
};
// "bf16:66", "fp32:55:1"; nullopt when malformed.
std::optional<LibraryKernel> parse_library_kernel(const std::string& text);

struct LibraryProbe {
  LibraryKernel kernel;
  std::string stopped;
  std::vector<Finding> findings;  // with the built-in model's value in `detail` where it differs
  std::vector<Verification> checks;
  std::vector<std::pair<std::string, std::string>> builtin;  // parameter -> the shipped model's value
  Verification model_check;          // the shipped library model on every call, with the configuration that ran
  std::vector<std::string> configs;  // each call's configuration, as the library reported it
  double seconds = 0;
  bool reproduced() const;
};

LibraryProbe probe_library_kernel(LibraryOracle& oracle, const LibraryKernel& kernel, uint64_t seed,
                                  const std::function<void(const std::string&)>& progress = {});

std::string library_report_markdown(const std::string& oracle, const std::vector<LibraryProbe>& probes);

}  // namespace mmaemu::probe
