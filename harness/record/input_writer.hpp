// A recording's inputs without a GPU (`mmaemu record --inputs-only`), for a model of the hardware to
// compute D from (scripts/mmasim_fixtures.py writes MMA-Sim's D and the manifest). Writes, atomically:
//   <dir>/<instr>/{a,b,c}.npy, and sa.npy, sb.npy for a block-scaled instruction;
//   <dir>/inputs.json: the arch, seed, command line, and per instruction its directory, tile count and
//   the families' tile ranges.
// Directory names are the instruction's spelling with "::" written "-" (kind::f8f6f4 -> kind-f8f6f4).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/record/recording.hpp"

namespace mmaemu::record {

std::string instruction_directory(const std::string& instr);

void write_recording_inputs(const std::filesystem::path& dir, const std::string& arch, uint64_t seed,
                            const std::string& command_line, const std::vector<InstructionRecording>& recordings);

}  // namespace mmaemu::record
