// One instruction's recording: its input tiles (from the generator families), the tile ranges of
// each family, and the D the GPU returned. Host-only data; the GPU side fills `d`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/operands.hpp"
#include "generators/families.hpp"
#include "mmaemu/reference/instruction.hpp"

namespace mmaemu::record {

// The instructions the recorder knows, in PTX spelling (also their directory names).
const std::vector<std::string>& recordable_instructions();

struct FamilyRange {
  gen::Family family;
  int first = 0, last = 0;  // tiles [first, last)
  std::string label = {};   // the name written instead of the family's: a probe experiment ("probe-fraction")
};

struct InstructionRecording {
  ref::Instruction instr;
  int tiles = 0;
  std::vector<FamilyRange> families;
  std::vector<uint32_t> a, b, c, d;  // contract layout, raw bits widened to 32 bits
  std::vector<uint32_t> sa, sb;      // block-scaled instructions: [tiles][M][S], [tiles][S][N]
  size_t scales_per_row = 0;         // S (0: no scales)

  size_t outputs() const { return static_cast<size_t>(tiles) * instr.m * instr.n; }
};

// Element i of an array of format f in words (two per fp64 element): its raw pattern, value class and
// exact value (NaN and infinities as double NaN and Inf), for the recorder's self-checks and summary.
uint64_t element_pattern(ref::FormatId f, const std::vector<uint32_t>& words, size_t i);
ref::ValueClass element_class(ref::FormatId f, const std::vector<uint32_t>& words, size_t i);
double element_value(ref::FormatId f, const std::vector<uint32_t>& words, size_t i);

// Tiles per family that give at least 50,000 outputs over all families.
int default_tiles_per_family(const ref::Instruction& instr);

// Generates the inputs: `tiles_per_family` tiles of every family, in all_families() order (and the
// scales of a block-scaled instruction, from the same tile seeds). Tile i's seed depends on (seed,
// instruction name, family, index within the family) only.
InstructionRecording plan_recording(const ref::Instruction& instr, uint64_t seed, int tiles_per_family);

using mmaemu::storage_bytes;  // bytes per stored element (harness/core/operands.hpp)

}  // namespace mmaemu::record
