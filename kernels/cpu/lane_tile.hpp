// What a lane kernel computes: a tile of GEMM outputs (rows x lanes) over a chunk of K, the block chain
// of every output continued from its accumulator, with operands already decoded (decoded_operands.hpp).
// One kernel per instruction set (lanes_<isa>.cpp, the same source compiled for each); the backend
// (cpu_backend.cpp) tiles the GEMM, decodes, picks the kernel and finishes irregular outputs.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/cpu/lane_plan.hpp"

namespace mmaemu::kernels::cpu {

struct LaneTile {
  const LanePlan* plan = nullptr;
  int width = 0;     // lanes per vector: 4, 8 or 16 (no more than the kernel's instruction set holds)
  int rows = 0;
  int lanes = 0;     // columns, a multiple of width (B's decoded rows and acc are this wide)
  int k_count = 0;   // elements of K in this chunk: a multiple of plan->k
  // A's decoded row r, element i: a_exp[r * a_stride + i] (and a_sig, a_neg likewise).
  const int32_t* a_exp = nullptr;
  const uint32_t* a_sig = nullptr;
  const uint32_t* a_neg = nullptr;  // all ones for a negative operand, else 0
  size_t a_stride = 0;
  // B's decoded element i of column j: b_*[i * lanes + j]; significands pre-shifted by plan->pre_shift.
  const int32_t* b_exp = nullptr;
  const uint32_t* b_sig = nullptr;
  const uint32_t* b_neg = nullptr;
  uint32_t* acc = nullptr;        // [rows][lanes]: C or the chain so far, in plan->acc's pattern; updated
  uint8_t* irregular = nullptr;   // [rows][lanes]: set to 1 where an output needs the scalar arithmetic
                                  // (a NaN or Inf addend, or a block whose terms are all zero)
  // Optional trace: after step s of this chunk, output (r, j < cols) writes
  // trace[r * trace_row + j * trace_col + first_step + s].
  uint32_t* trace = nullptr;
  size_t trace_row = 0, trace_col = 0, first_step = 0;
  int cols = 0;
};

// The kernels, one per instruction set; each takes widths up to its own (portable: 4 and 8).
void lanes_portable(const LaneTile& tile);
void lanes_avx2(const LaneTile& tile);
void lanes_avx512(const LaneTile& tile);

}  // namespace mmaemu::kernels::cpu
