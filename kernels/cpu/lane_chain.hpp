// A tile's block chains continued over a range of K: the step the cpu backend's GEMM (cpu_backend.cpp)
// and its library GEMM (library_lanes.cpp) share. The range is cut into chunks; per chunk A's rows and
// B's columns are decoded (decoded_operands.hpp) and the lane kernel of the chosen ISA runs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/cpu/decoded_operands.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/lane_plan.hpp"

namespace mmaemu::kernels::cpu {

// A tile's state between chunks: each output's accumulator (plan.acc's pattern) and whether the scalar
// arithmetic must redo it (a NaN or Inf met in its row, column or chain, or an all-zero block).
struct TileState {
  DecodedPlanes a, b;
  std::vector<uint32_t> acc;        // [rows][lanes]
  std::vector<uint8_t> irregular;   // [rows][lanes]
  std::vector<uint8_t> row_special; // [rows]
  std::vector<uint8_t> col_special; // [lanes]
  void reset(size_t rows, size_t lanes);  // acc +0, nothing irregular
  bool needs_scalar(size_t r, size_t j, size_t lanes) const {
    return irregular[r * lanes + j] || row_special[r] || col_special[j];
  }
};

// The trace of a GEMM's outputs, when asked: output (r, j)'s step s at
// base[r * row + j * col + first_step + s] (first_step: the step of the range's first element).
struct TileTrace {
  uint32_t* base = nullptr;
  size_t row = 0, col = 0, first_step = 0;
};

// The lane width for N columns: the ISA's widest, halved while half of it still covers N.
int lane_width(Isa isa, size_t N);

// Continues every output's chain over elements [k0, k0 + count) of the source (count a multiple of
// plan.k; elements at or past src.k_end are zeros), `width` lanes per vector.
void chain_tile(const arith::InstrParams& ip, const LanePlan& plan, LaneKernel kernel, int width, const TileSource& src,
                size_t k0, size_t count, TileState& state, const TileTrace& trace = {});

}  // namespace mmaemu::kernels::cpu
