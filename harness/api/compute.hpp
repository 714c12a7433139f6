// mmaemu's computations on operands held in memory: one instruction over T tiles (`mmaemu mma`) and a
// GEMM of any shape as an architecture's MMA loop runs it (`mmaemu gemm`). The command line reads the
// operands from .npy files and names errors by file; Python hands over arrays and names them by
// argument. Both get the same checks and the same messages (DESIGN.md, "Interfaces that must hold").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "harness/api/run_backend.hpp"
#include "harness/core/npy.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::api {

// An operand in memory (raw bits, widened to words as NpyArray holds them) and the name its errors
// carry: a file for the command line, an argument for Python.
struct Operand {
  NpyArray array;
  std::string name;
};

struct ComputeRequest {
  std::string arch, instr;          // "sm90", "mma.m16n8k16.f32.bf16.bf16.f32"
  std::string backend = "reference";  // a backend's name or "auto"
  Operand a, b, c;
  std::optional<Operand> scale_a, scale_b;  // block-scaled instructions only
  bool trace = false;                       // gemm: the accumulator after every step too
};

struct ComputeResult {
  NpyArray d;      // shaped as C
  NpyArray trace;  // gemm with trace: [.., M, N, steps]; empty otherwise
  BackendRun run;
};

// The instruction model of `instr` on `arch`; InputError naming --arch or --instr when either is
// empty or unknown (ref::UnsupportedInstruction, exit 2, when the architecture lacks the instruction).
const ref::InstructionModel& find_instruction(const std::string& arch, const std::string& instr);

// A [T, M, K], B [T, K, N], C [T, M, N] at the instruction's own M, N, K.
ComputeResult mma(const ComputeRequest& request);

// A [M, K] or [batch, M, K], B [K, N] or [batch, K, N], C [M, N] or [batch, M, N], any M, N, K.
ComputeResult gemm(const ComputeRequest& request);

// An array in CUDA device memory: raw bits in the native width of its format (`bytes` per element),
// C order, shaped as the host operand would be.
struct DeviceArray {
  void* data = nullptr;
  int bytes = 0;
  std::vector<size_t> shape;
  std::string name;
};

struct DeviceComputeRequest {
  std::string arch, instr;
  std::string backend = "auto";  // a backend that takes device operands (simt), or auto: the first that does
  DeviceArray a, b, c;
  DeviceArray d;  // receives D, shaped as C, in D's width
  std::optional<DeviceArray> scale_a, scale_b;
};

// api::mma and api::gemm with every array on the GPU, no copy to the host: the checks of the host
// forms, the operands widened to words and D narrowed in device memory. Returns the backend that ran.
// fp4 / fp6 operands are refused here (their unused bits are checked where the values are read: on
// the host). KernelError without CUDA or a device.
std::string mma_on_device(const DeviceComputeRequest& request);
std::string gemm_on_device(const DeviceComputeRequest& request);

}  // namespace mmaemu::api
