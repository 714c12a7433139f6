// Replays the Khattak & Mikaitis recordings of real tensor cores through the reference: every dot
// product is recomputed with the architecture profile and instruction that made it, and compared
// with the GPU's result bit for bit.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "harness/core/result.hpp"
#include "harness/external/km_archive.hpp"

namespace mmaemu::external {

// How one recorded set was made: which architecture, which instruction, what addend it was given.
struct KmRecipe {
  std::string_view gpu, format, out;  // the archive's spelling: "H100", "E4M3", "fp16"
  std::string_view arch;              // reference architecture: "sm90"
  std::string_view instruction;       // PTX spelling: "wgmma.m64n8k32.f16.e4m3.e4m3"
  int k;                              // products per recorded dot product
  bool zero_addend;                   // the recording ran with C = 0, whatever c file says
};

// Every row of the table: one per GPU x input format x output type in the archive.
std::span<const KmRecipe> km_recipes();

// The recipe of a set, or nullopt for a GPU/format/output the table does not know.
std::optional<KmRecipe> km_recipe(std::string_view gpu, std::string_view format, std::string_view out);

// Group name of a set in results: "H200/fp16/fp32-out".
std::string km_group(const KmSet& s);

// Replays one set into `result` (group counts, first mismatches). Throws InputError naming the file
// and line when an input cannot be given to the instruction, ref::UnsupportedInstruction when the
// reference lacks the architecture's instruction.
void replay_km_set(const KmSet& s, const KmRecipe& r, SuiteResult& result);

// Replays every set of the archive. Verdict: fail when any dot product differs, error when a set
// could not be replayed (unknown set, instruction the reference lacks); reason names the groups.
// Throws InputError when the archive itself is unusable.
SuiteResult replay_km_archive(const std::filesystem::path& archive);

}  // namespace mmaemu::external
