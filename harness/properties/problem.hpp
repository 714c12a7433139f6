// A GEMM problem as the properties draw it, the reference's answer to it, and how a failing one is
// written down: in hex (inputs, expected, got) and as .npy files with the `mmaemu gemm` command that
// replays it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/properties/operand_gen.hpp"
#include "harness/properties/property.hpp"

namespace mmaemu::props {

struct Problem {
  const ref::InstructionModel* model = nullptr;
  kernels::GemmShape shape;
  Operands ops;
};

// D [batch][M][N] and the accumulator after every step [batch][M][N][steps].
struct Outputs {
  std::vector<uint32_t> D, trace;
};

size_t steps_of(const Problem& p);
size_t scales_of(const Problem& p);  // scales per row of A (0: not block-scaled)

// ref::gemm on every batch entry, trace included.
Outputs reference_outputs(const Problem& p);

// "sm90 mma.m16n8k16.f32.f16.f16.f32 batch 1 M 1 N 1 K 2 a=[3c00 0000] b=[...] c=[...]"
std::string describe(const Problem& p);

// Where two output sets first differ: "D[0][1][0]" or "trace[0][0][0] after step 2", with the bits.
struct Difference {
  std::string where;
  uint32_t expected = 0, got = 0;
};
// `same` decides what counts as equal (default: equal bits); the properties that compare zeros by
// class pass their own.
using SameBits = bool (*)(ref::FormatId d, uint32_t expected, uint32_t got);
std::optional<Difference> first_difference(const Problem& p, const Outputs& expected, const Outputs& got,
                                           SameBits same = nullptr);

// A counterexample of one problem: its inputs, the difference, the problem's arrays as files named
// `<prefix>a`, `<prefix>b`, `<prefix>c` and the command that computes its D with `backend`.
Counterexample problem_counterexample(const Problem& p, const Difference& d, const std::string& what,
                                      const std::string& backend);

// Adds a second problem of the same case (the transformed one of a relation) to a counterexample.
void add_problem(Counterexample& c, const Problem& p, const std::string& prefix, const std::string& backend);

// The storage word size of a format's patterns in .npy files (1, 2 or 4).
int word_bytes(ref::FormatId f);

}  // namespace mmaemu::props
