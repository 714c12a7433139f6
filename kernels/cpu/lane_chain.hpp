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

// An M x N output grid cut into tiles of kTileRows x kTileCols, the work items of the threads: a tile
// decodes its rows of A and columns of B once for all of its outputs, so decoding costs 1/kTileRows +
// 1/kTileCols of the multiply-adds (128 x 128: 1.8x the rate of 32 x 128 at 1024x1024x4096 bf16).
inline constexpr size_t kTileRows = 128, kTileCols = 128;
struct Tile {
  size_t m0, n0, rows, cols, lanes;  // lanes: cols rounded up to the lane width
};
struct TileGrid {
  size_t M, N;
  int width;
  size_t row_tiles() const { return (M + kTileRows - 1) / kTileRows; }
  size_t col_tiles() const { return (N + kTileCols - 1) / kTileCols; }
  size_t count() const { return row_tiles() * col_tiles(); }
  Tile tile(size_t i) const {
    const size_t m0 = i / col_tiles() * kTileRows, n0 = i % col_tiles() * kTileCols;
    const size_t cols = N - n0 < kTileCols ? N - n0 : kTileCols, w = static_cast<size_t>(width);
    return {m0, n0, M - m0 < kTileRows ? M - m0 : kTileRows, cols, (cols + w - 1) / w * w};
  }
};

// Continues every output's chain over elements [k0, k0 + count) of the source (count a multiple of
// plan.k; elements at or past src.k_end are zeros), `width` lanes per vector.
void chain_tile(const arith::InstrParams& ip, const LanePlan& plan, LaneKernel kernel, int width, const TileSource& src,
                size_t k0, size_t count, TileState& state, const TileTrace& trace = {});

}  // namespace mmaemu::kernels::cpu
