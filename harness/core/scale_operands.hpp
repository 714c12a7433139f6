// The scale operands of block-scaled instructions (`--scale-a`, `--scale-b` of `mmaemu mma` and
// `mmaemu gemm`): one scale per block of `block` consecutive k, for each row of A and each column of B.
//   SA [.., M, S], SB [.., S, N], S = ceil(K / block), uint8, with the leading [T] or [batch] of A and B
//   when those have one. ue8m0 takes the whole byte; ue4m3 the low 7 bits (bit 7 must be zero).
#pragma once
#include <cstddef>
#include <string>

#include "harness/core/npy.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu {

// The GEMM the scales belong to (batch: T tiles for `mmaemu mma`).
struct ScaledShape {
  size_t batch, M, N, K;
};

struct ScaleFiles {
  std::string a, b;  // paths given to --scale-a / --scale-b; empty when not given
};

// Throws InputError (exit 2) naming the option when an instruction that takes scales lacks either
// file or one that takes none is given one; naming the file when a shape or dtype is wrong or an
// unused bit is set. `batched`: A and B carry a leading batch (or tile) dimension, so the scales do.
void check_scale_operands(const ref::Instruction& instr, const ScaleFiles& files, const NpyArray& sa,
                          const NpyArray& sb, const ScaledShape& shape, bool batched);

// The option checks alone: throws InputError naming the option when an instruction that takes scales
// lacks either (files.a or files.b empty) or one that takes none is given one. True when it takes them.
bool scale_operands_expected(const ref::Instruction& instr, const ScaleFiles& files);

// Reads both files when the instruction takes scales (after the option checks above); leaves the
// arrays empty when it does not.
void read_scale_operands(const ref::Instruction& instr, const ScaleFiles& files, const ScaledShape& shape,
                         bool batched, NpyArray& sa, NpyArray& sb);

}  // namespace mmaemu
