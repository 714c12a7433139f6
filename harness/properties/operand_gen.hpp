// RapidCheck generators of MMA inputs: the project's input families (generators/) as starting
// points, shrinking element by element toward simple values, so that a counterexample found on a
// 17x9x33 GEMM of subnormals comes back as a few non-zero elements.
//
// The draw_* functions call RapidCheck's `*gen`: they may be used only inside a property body.
#pragma once
#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include "generators/families.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::props {

// Simpler patterns of the same format than `bits`, simplest first: +0; 1.0; the pattern with its
// lowest set fraction bit cleared; its exponent halfway to 2^0; its sign cleared. NaN, Inf and
// subnormals shrink to +0 or 1.0 (subnormals also lose fraction bits). tf32 shrinks as the fp32
// pattern it is stored in, so the 13 bits the hardware ignores shrink away too.
std::vector<uint32_t> simpler_patterns(ref::FormatId f, uint32_t bits);

// An array that starts as `start` and shrinks element by element.
rc::Gen<std::vector<uint32_t>> shrinking_array(std::vector<uint32_t> start, ref::FormatId f);

// A GEMM problem's operands in the kernels' layout: A[batch][M][K], B[batch][K][N], C[batch][M][N];
// block-scaled instructions also SA[batch][M][S], SB[batch][S][N] (empty for the others).
struct Operands {
  std::vector<uint32_t> A, B, C, SA, SB;
};

// Operands filled from `family` by the project's generators (each batch entry one tile of shape
// M x N x K, from a drawn seed), every element then shrinking on its own; a block-scaled instruction's
// scales from the same seeds (they do not shrink).
Operands draw_family_operands(const ref::Instruction& formats, const kernels::GemmShape& shape, gen::Family family);

// A family, drawn from every instruction-tile family (shrinks toward `realistic`).
gen::Family draw_family();

// A model, drawn from a list (shrinks toward the first).
const ref::InstructionModel* draw_model(const std::vector<const ref::InstructionModel*>& models);

// GEMM shapes around an instruction's tile: M up to 2m+1, N up to 2n+1 (wgmma: 16), K up to 3k+1, so
// that edges past a tile and K no multiple of the instruction's K occur; batch up to max_batch.
// Each dimension shrinks toward 1.
kernels::GemmShape draw_gemm_shape(const ref::Instruction& in, size_t max_batch);

// The largest N such that every integer in [-N, N] is exact in the format.
long exact_integer_limit(ref::FormatId f);

// An integer in [-limit, limit] that shrinks toward 0 (0, -1, 1, -2, 2, ...).
rc::Gen<long> small_integer(long limit);

// Integers as patterns of a format (tf32: fp32 patterns); each must be exact in it.
std::vector<uint32_t> encode_integers(ref::FormatId f, const std::vector<long>& v);

// The models of `profiles` (wgmma and tcgen05 at N = 8: the arithmetic does not depend on N). Not the
// block-scaled instructions: the properties here draw no scale operands (T3 holds those against the
// reference with scales from every family).
std::vector<const ref::InstructionModel*> models_of(ref::Arch profile);
// The block-scaled models of a profile (N = 8).
std::vector<const ref::InstructionModel*> block_scaled_models_of(ref::Arch profile);

}  // namespace mmaemu::props
