// Scale operands of block-scaled instructions (ref::Instruction::scale), drawn per input family:
// near 1 for most families, the unit scale for small_int (its sums stay exact), tiny ones for
// subnormal, the extremes for extreme_acc, NaN and the extremes among them for specials, any pattern
// for random_bits. Same (family, instruction, seed, sizes) -> same bits, on every platform.
#pragma once
#include <cstddef>
#include <cstdint>

#include "generators/families.hpp"

namespace mmaemu::gen {

// Fills sa[M * S] (A's rows) and sb[S * N] (B's columns), S scales per row or column along K.
// Does nothing for an instruction without scales.
void generate_scales(Family family, const ref::Instruction& in, uint64_t seed, size_t M, size_t S, size_t N,
                     uint32_t* sa, uint32_t* sb);

}  // namespace mmaemu::gen
