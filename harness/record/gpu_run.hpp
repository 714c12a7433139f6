// The recorder's view of the GPU: pick a device, ask whether it has an instruction, run tiles.
// Errors come back as messages carrying CUDA's own text (cudaGetErrorString).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/record/recording.hpp"

namespace mmaemu::record {

struct GpuDevice {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;

  int cc() const { return 10 * cc_major + cc_minor; }
};

std::optional<GpuDevice> open_device(int index, std::string* error);

// Whether the recorder has a kernel for `instr` that this device can run (else *why says why not).
bool device_has_instruction(const GpuDevice& dev, const std::string& instr, std::string* why);

// Runs every tile of r (inputs a, b, c) on the current device. D is filled with `poison_byte` before
// the launch. Returns "" on success, else a message naming the failing step and CUDA's error.
std::string run_on_gpu(const InstructionRecording& r, uint8_t poison_byte, std::vector<uint32_t>& d);

// "nvcc 13.0.88" (the CUDA compiler this code was built with).
std::string cuda_compiler_version();

}  // namespace mmaemu::record
