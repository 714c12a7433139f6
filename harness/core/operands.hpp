// Shape and dtype checks of the `mmaemu mma` operands (DESIGN.md, "Interfaces that must hold"):
//   A [T, M, K], B [T, K, N], C and D [T, M, N]; raw bits in uint8 (e4m3, e5m2; fp6 e3m2 and e2m3 in
//   the low 6 bits, fp4 e2m1 in the low 4, one element per byte), uint16 (fp16, bf16) or uint32
//   (fp32, tf32).
#pragma once
#include <cstddef>
#include <string>

#include "mmaemu/reference/instruction.hpp"
#include "harness/core/npy.hpp"

namespace mmaemu {

// Bytes per stored element of a format: 1, 2 or 4 (fp4 and fp6 take a byte each).
int storage_bytes(ref::FormatId f);

// Formats narrower than their storage (fp4, fp6): throws InputError naming the file and the first
// element with a bit set above the format's width.
void check_unused_bits_clear(const NpyArray& arr, const std::string& file, char role, ref::FormatId format);

// Returns the tile count T. Throws InputError naming the offending file when an array's shape is not
// the instruction's, the tile counts disagree, T is zero, or a dtype does not fit its format.
size_t check_operands(const ref::Instruction& instr, const NpyArray& a, const std::string& a_file,
                      const NpyArray& b, const std::string& b_file, const NpyArray& c,
                      const std::string& c_file);

// The same for a result array D [T, M, N] in the instruction's D format.
void check_result(const ref::Instruction& instr, size_t tiles, const NpyArray& d, const std::string& d_file);

}  // namespace mmaemu
