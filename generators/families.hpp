// Input families: deterministic A, B, C tiles for one MMA instruction, each family aimed at one part
// of tensor-core arithmetic (alignment, truncation, carries, subnormals, specials, ...).
//
// Tiles are in the `mmaemu mma` contract layout, raw bit patterns widened to 32 bits (fp64: two words
// per element, low word first, families_fp64.cpp):
//   a[m * K + k]  (M x K),  b[k * N + n]  (K x N),  c[m * N + n]  (M x N)
// in the formats instr.a, instr.b and instr.c. tf32 operands are full fp32 patterns whose low 13 bits
// are non-zero (how the hardware reads them is part of the test), except in small_int, whose tiles
// must be exact in every format, and for a quarter of the specials operands (clean patterns).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "mmaemu/reference/instruction.hpp"

namespace mmaemu::gen {

enum class Family : uint8_t {
  realistic,    // normal-ish values of moderate magnitude
  random_bits,  // uniform raw bit patterns: every exponent, NaN and Inf included
  subnormal,    // subnormal and near-subnormal operands and products, tiny C
  cancellation, // x, -x product pairs (exact or off by one ulp) plus small residues; C cancelling the sum
  dominant,     // one dominant product (or C) among small ones: alignment and truncation of the rest
  specials,     // NaN, +-Inf, +-0, max finite, min subnormal; inf*0 and inf-inf planted
  small_int,    // small integers: every product and sum exact in every format (layout proof)
  extreme_acc,  // C at max finite, near max, tiny, subnormal, +-0 against huge, small or tiny products
  carry_chain,  // all-ones significands, aligned or staggered, so the aligned sum carries far
  pair_probe,   // whole-GEMM summation-order probe (+-2^40 pairs among ones); not in all_families()
};

std::string_view family_name(Family f);
std::string_view family_description(Family f);  // one line, for fixture READMEs
std::optional<Family> parse_family(std::string_view name);
const std::vector<Family>& all_families();  // the families for instruction tiles (pair_probe excluded)

// Fills one tile. Same (family, instruction formats and shape, seed) -> same bits, on every platform.
void generate_tile(Family family, const ref::Instruction& instr, uint64_t seed, uint32_t* a,
                   uint32_t* b, uint32_t* c);

}  // namespace mmaemu::gen
