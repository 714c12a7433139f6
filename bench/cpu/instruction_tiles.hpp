// Instruction tiles of realistic operands, shared by the benchmarks that time one instruction over many
// tiles (mmasim_bench: in process beside MMA-Sim; process_bench: whole programs on .npy files).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::bench {

struct InstructionTiles {
  kernels::GemmShape shape;  // batch = tiles
  std::vector<uint32_t> A, B, C;
};

// `count` tiles of the realistic family, tile i from seed + i.
InstructionTiles make_instruction_tiles(const ref::InstructionModel& m, size_t count, uint64_t seed);

// a.npy, b.npy, c.npy in `dir` ([tiles][M][K], [tiles][K][N], [tiles][M][N], raw bits in each format's
// storage width): what `mmaemu mma` and bench/cpu/mmasim_rate.py read.
void write_instruction_tiles(const ref::InstructionModel& m, const InstructionTiles& t, const std::filesystem::path& dir);

// The instruction model `name` of `arch`; InputError when the profile lacks it.
const ref::InstructionModel& find_instruction(ref::Arch arch, const std::string& name);

}  // namespace mmaemu::bench
