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

// A's rows [0, rows) of `a` (row r at a + r * K), elements [k0, k0 + kn): out[r * kn + i].
void decode_a(const arith::InstrParams& ip, const uint32_t* a, size_t K, size_t rows, size_t k0, size_t kn,
              DecodedPlanes& out);

// B's columns [0, cols) of `b` (element k of column j at b[k * N + j]), elements [k0, k0 + kn), as `lanes`
// columns (cols..lanes zero): out[i * lanes + j]; significands shifted left by pre_shift.
void decode_b(const arith::InstrParams& ip, const uint32_t* b, size_t K, size_t N, size_t cols, size_t lanes,
              size_t k0, size_t kn, int pre_shift, DecodedPlanes& out);

}  // namespace mmaemu::kernels::cpu
