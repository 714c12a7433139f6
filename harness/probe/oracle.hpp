// What the probe asks: D for whole tiles of one instruction, from the GPU at hand or, for tests and
// dry runs, from a model. The probe sees nothing else of it: run blind, it learns only from D.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "harness/record/provenance.hpp"
#include "harness/record/recording.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::probe {

class Oracle {
 public:
  virtual ~Oracle() = default;
  // "NVIDIA H200 (sm_90), driver 580.95" or "reference model of sm90 (a model, not hardware)".
  virtual std::string describe() const = 0;
  // The architecture whose profile the results belong to.
  virtual ref::Arch arch() const = 0;
  // Whether it can run `instr` (else *why says why not).
  virtual bool has(const std::string& instr, std::string* why) const = 0;
  // D of every tile of `tiles` (instr, tiles, a, b, c), in the contract layout, widened to words.
  // Throws std::runtime_error with the reason when the run fails.
  virtual std::vector<uint32_t> run(const record::InstructionRecording& tiles) = 0;
  // Which outputs of the last run() the oracle could not give (recordings that lack them); nullptr when it
  // gave every one. Those outputs are left out of every comparison and counted apart, never as agreeing.
  virtual const std::vector<bool>* unanswered() const { return nullptr; }
  // Where the outputs came from, for the fixture manifests (GPU, driver, CUDA; or the model).
  virtual record::Provenance provenance(const std::string& command) const = 0;
};

// The reference model of `arch` as installed (the built-in profile or a --profile file).
std::unique_ptr<Oracle> reference_oracle(ref::Arch arch);

// Recorded outputs (fixture sets: a probe's, a recorder's) looked up by their inputs: the inference run
// again without the GPU. Throws std::invalid_argument when a set cannot be read.
std::unique_ptr<Oracle> recorded_oracle(const std::vector<std::filesystem::path>& fixture_sets);

// The GPU `device` with the recorder's kernels; nullptr with *why when there is no usable GPU or the
// program was built without CUDA.
std::unique_ptr<Oracle> gpu_oracle(int device, std::string* why);

}  // namespace mmaemu::probe
