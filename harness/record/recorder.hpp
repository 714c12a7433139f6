// The GPU recorder: runs single MMA instructions on this machine's GPU over deterministic input
// families and writes the results as a fixture set (manifest.yaml, README.md, record.log and
// <instr>/{a,b,c,d}.npy), after checking its own fragment layouts against exact arithmetic.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu {

struct RecordOptions {
  std::filesystem::path out_dir;
  uint64_t seed = 1;
  int tiles_per_family = 0;               // 0: enough for >= 50,000 outputs per instruction
  std::vector<std::string> instructions;  // PTX spellings; empty: all this GPU has
  int device = 0;
  std::string command_line;               // recorded in the manifest
  std::string commit;                     // empty: the commit the recorder was built from
};

// Returns an exit status: 0 written, 1 a self-check failed (nothing written), 2 unusable input or
// no usable GPU (with CUDA's message).
int record_fixtures(const RecordOptions& options);

}  // namespace mmaemu
