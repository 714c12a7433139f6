// Inputs of the kernel tiers (T3, T3p): GEMM problems in raw bits, filled from the input families.
//
// A single instruction is a GEMM of the instruction's shape with batch = tiles, each tile straight from
// gen::generate_tile. A GEMM of any M x N x K is filled tile by tile: the instruction-shaped tiles of
// one family are laid along K, and an output block (i, j) of the diagonal (i == j) sees the A, B and C
// of the same generated tiles, so that what a family plants inside one tile (x, -x pairs, a C that
// cancels the products, a dominant term) reaches the GEMM; off the diagonal, A and B come from tiles
// of rows i and columns j, still drawn from the family. Edges are cropped, K included.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "generators/families.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::tiers {

// One GEMM problem's inputs (layout of kernels/backend.hpp: A[batch][M][K], B[batch][K][N], C[batch][M][N];
// block-scaled instructions also SA[batch][M][S], SB[batch][S][N], drawn by gen::generate_scales).
struct GemmInputs {
  const ref::InstructionModel* model = nullptr;
  kernels::GemmShape shape;
  std::vector<uint32_t> A, B, C, SA, SB;

  size_t outputs() const { return kernels::c_count(shape); }
  size_t steps() const { return ref::gemm_steps(*model, shape.K); }
  size_t scales_per_row() const { return kernels::scales_per_row(*model, shape); }
  // Batch entry t's first scale of row m (A) and of column 0 (B); null without scales.
  const uint32_t* sa(size_t t, size_t m) const { return SA.empty() ? nullptr : &SA[(t * shape.M + m) * scales_per_row()]; }
  const uint32_t* sb(size_t t) const { return SB.empty() ? nullptr : &SB[t * scales_per_row() * shape.N]; }
};

// "33x17x70" -> {1, 33, 17, 70}; nullopt (with *why) when it is not M x N x K with each >= 1.
std::optional<kernels::GemmShape> parse_gemm_shape(const std::string& text, std::string* why);
std::string shape_name(const kernels::GemmShape& s);  // "33x17x70" (batch not included)

// A seed for one problem, from the suite's seed and a stream name ("sm90/mma.../gemm 33x17x70/subnormal").
uint64_t problem_seed(uint64_t suite_seed, const std::string& stream);

// `tiles` instruction tiles of `family`: batch = tiles, M, N, K = the instruction's shape.
GemmInputs instruction_tiles(const ref::InstructionModel& model, gen::Family family, size_t tiles, uint64_t seed);

// A GEMM of `shape` (batch included) filled from `family` as described above; each batch entry has
// its own seed.
GemmInputs gemm_operands(const ref::InstructionModel& model, gen::Family family, const kernels::GemmShape& shape,
                         uint64_t seed);

}  // namespace mmaemu::tiers
