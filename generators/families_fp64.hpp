// Internal: the input families for fp64 operands (two words per element), behind gen::generate_tile.
#pragma once
#include <cstdint>

#include "generators/families.hpp"

namespace mmaemu::gen {

void generate_fp64_tile(Family family, const ref::Instruction& in, uint64_t seed, uint32_t* a, uint32_t* b, uint32_t* c);

}  // namespace mmaemu::gen
