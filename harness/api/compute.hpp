// mmaemu's computations on operands held in memory: one instruction over T tiles (`mmaemu mma`) and a
// GEMM of any shape as an architecture's MMA loop runs it (`mmaemu gemm`). The command line reads the
// operands from .npy files and names errors by file; Python hands over arrays and names them by
// argument. Both get the same checks and the same messages (DESIGN.md, "Interfaces that must hold").
#pragma once
#include <optional>
#include <string>

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

}  // namespace mmaemu::api
