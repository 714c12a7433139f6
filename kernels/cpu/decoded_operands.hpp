// A and B of one tile and K chunk, decoded once for the lane kernels (lane_tile.hpp): per element its
// exponent, significand and sign as three planes of 32-bit words, zero operands at kZeroExp with a zero
// significand, K past its end and columns past the tile's as zeros. An element that is NaN or Inf marks
// its row (A) or column (B): every output it reaches is left to the scalar arithmetic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/arith/op_params.hpp"

namespace mmaemu::kernels::cpu {

struct DecodedPlanes {
  std::vector<int32_t> exp;
  std::vector<uint32_t> sig;
  std::vector<uint32_t> neg;  // all ones for a negative element
  std::vector<uint8_t> special;  // per row (A) or column (B): a NaN or an Inf among its elements
  void resize(size_t elements, size_t lines);
};

// Where a tile's operands are: A's row r at a + r * a_stride, B's element k of column j at
// b[k * b_stride + j]; elements at or past k_end are zeros (the end of K, or of a library slice); with
// round_tf32, fp32 patterns are rounded to tf32 (nearest even) first, as the library's tf32 kernels do.
struct TileSource {
  const uint32_t* a = nullptr;
  size_t a_stride = 0;
  const uint32_t* b = nullptr;
  size_t b_stride = 0;
  size_t k_end = 0;
  size_t rows = 0, cols = 0, lanes = 0;  // lanes: cols rounded up to the lane width (the rest zeros)
  bool round_tf32 = false;
};

// A's rows, elements [k0, k0 + kn): out[r * kn + i].
void decode_a(const arith::InstrParams& ip, const TileSource& src, size_t k0, size_t kn, DecodedPlanes& out);

// B's columns, elements [k0, k0 + kn): out[i * lanes + j]; significands shifted left by pre_shift.
void decode_b(const arith::InstrParams& ip, const TileSource& src, size_t k0, size_t kn, int pre_shift,
              DecodedPlanes& out);

}  // namespace mmaemu::kernels::cpu
