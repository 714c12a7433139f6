// Shape and dtype checks of the `mmaemu mma` operands (DESIGN.md, "Interfaces that must hold"):
//   A [T, M, K], B [T, K, N], C and D [T, M, N]; raw bits in uint8 (e4m3, e5m2), uint16 (fp16, bf16)
//   or uint32 (fp32, tf32).
#pragma once
#include <cstddef>
#include <string>

#include "mmaemu/reference/instruction.hpp"
#include "harness/core/npy.hpp"

namespace mmaemu {

// Bytes per stored element of a format: 1, 2 or 4.
int storage_bytes(ref::FormatId f);

// Returns the tile count T. Throws InputError naming the offending file when an array's shape is not
// the instruction's, the tile counts disagree, T is zero, or a dtype does not fit its format.
size_t check_operands(const ref::Instruction& instr, const NpyArray& a, const std::string& a_file,
                      const NpyArray& b, const std::string& b_file, const NpyArray& c,
                      const std::string& c_file);

// The same for a result array D [T, M, N] in the instruction's D format.
void check_result(const ref::Instruction& instr, size_t tiles, const NpyArray& d, const std::string& d_file);

}  // namespace mmaemu
