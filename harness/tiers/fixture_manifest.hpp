// Fixture sets: recordings of a real GPU, one directory per set with a manifest.yaml (schema
// "mmaemu-fixtures/1") that lists every instruction, its tiles, its input families and the sha256 of
// its a.npy, b.npy, c.npy and d.npy (block-scaled instructions also sa.npy and sb.npy). The manifest
// is schema-checked like a tier file. `source: model` marks a set whose d comes from a model of the
// hardware (MMA-Sim), not from a GPU: replaying it pins no profile.
#pragma once
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/core/npy.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu {

struct FixtureFamily {
  std::string name;   // "realistic", "random_bits", ...
  size_t first = 0;   // tile range [first, last)
  size_t last = 0;
};

struct FixtureFile {
  std::filesystem::path path;  // resolved against the manifest's directory
  std::string sha256;          // lower-case hex
  std::string where;           // "manifest.yaml:line:column" of the sha256 value
};

struct FixtureInstruction {
  const ref::InstructionModel* model = nullptr;  // the reference's model of the instruction on the set's arch
  std::string instr;                             // PTX spelling as written
  size_t tiles = 0;
  std::vector<FixtureFamily> families;           // in order, covering [0, tiles)
  std::array<FixtureFile, 4> files;              // a, b, c, d
  std::vector<FixtureFile> scale_files;          // sa, sb: block-scaled instructions only
  std::string where;                             // the entry in the manifest
};

struct FixtureManifest {
  std::filesystem::path file;  // .../manifest.yaml
  std::string set;             // "h200"
  ref::Arch arch;
  std::map<std::string, std::string> recorded;  // provenance
  bool from_model = false;                       // source: model (d computed by a model, not a GPU)
  std::vector<FixtureInstruction> instructions;
};

// Loads and checks a manifest: schema (InputError at "file:line:column"), a known architecture that
// has every instruction listed, families that cover the tiles in order, files that exist.
FixtureManifest load_fixture_manifest(const std::filesystem::path& manifest_file);

// The recorded arrays of one instruction.
struct FixtureArrays {
  NpyArray a, b, c, d;
  size_t tiles = 0;
  NpyArray sa, sb;  // block-scaled instructions: [T, M, S], [T, S, N]
};

// Verifies each file's sha256 against the manifest (a mismatch is an InputError naming the .npy and
// the manifest line), reads the arrays and checks their shapes and dtypes against the instruction and
// the manifest's tile count.
FixtureArrays load_fixture_arrays(const FixtureInstruction& instr);

}  // namespace mmaemu
