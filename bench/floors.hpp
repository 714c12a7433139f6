// The two floors of a GEMM (the time below which no implementation runs): moving its bytes at the
// memory bandwidth, and doing its arithmetic at the rate of the unit that does it. Which floor is the
// larger says whether a backend is memory- or compute-bound; measured time over it is the gap.
#pragma once
#include <optional>
#include <string>

#include "bench/cuda_support.hpp"
#include "bench/gemm_inputs.hpp"

namespace mmaemu::bench {

struct Ceilings {
  double memory_bytes_per_s = 4.8e12;  // H200 HBM3e, datasheet (option --bandwidth-tbs)
  double lane_ops_per_s = 0;           // CUDA cores: SMs x 128 fp32 lanes x the reported boost clock
  int cc_major = 0;
  int sm_count = 0;
  double sm_clock_ghz = 0;
};

Ceilings ceilings_of(const DeviceFacts& dev, double bandwidth_tbs);

// Dense tensor-core MACs per second for A in `f` on this device, from Hopper's per-SM rates
// (fp16/bf16 2048, tf32 1024, fp8 4096 MACs per clock: the datasheet's 989 dense bf16 TFLOP/s over
// 132 SMs at 1.83 GHz) at the reported boost clock; nullopt on other GPUs.
std::optional<double> tensor_macs_per_s(const Ceilings& c, ref::FormatId f);

enum class Engine { cuda_cores, tensor_cores };

struct FloorNote {
  double min_bytes = 0;        // A and B read once, C read once, D written once
  double memory_floor_ms = 0;
  std::optional<double> compute_floor_ms;  // tensor-core work only (a CUDA-core emulation's ops per
                                           // MAC are the kernel's own choice: see lane_ops_per_mac)
  double lane_ops_per_mac = 0;  // CUDA-core lane operations per MAC the measured time allows
  std::string bound;            // "memory" or "compute"
  std::string summary;          // one short line for the table
};

// `c_format` is C's and D's format (fp32 in every benchmark case).
FloorNote floor_note(const kernels::GemmShape& s, ref::FormatId a, ref::FormatId b, ref::FormatId c_format,
                     Engine engine, double measured_ms, const Ceilings& c);

}  // namespace mmaemu::bench
