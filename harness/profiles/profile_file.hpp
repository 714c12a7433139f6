// Profiles as files: the block model of every instruction of one architecture, in YAML, so that a
// user (or `mmaemu probe`) can add a GPU without rebuilding. The form (docs in README.md here):
//
//   mmaemu-profile: 1
//   profile: my-h200            # a name for reports
//   arch: sm90                  # the architecture the file defines instructions of
//   keep-builtin: false         # true: the built-in instructions the file does not name stay
//   instructions:
//     - instr: mma.m16n8k16.f32.f16.f16.f32
//       block: {k: 16, frac-bits: 25, truncation: toward-zero, zero-product-exp: -133,
//               result: fp32, rounding: toward-zero, overflow: inf, zero-sign: positive,
//               tf32-input: toward-zero, group-k: 0}
//     - instr: mma.m16n8k32.f32.e4m3.e4m3.f32
//       lowered: {via: mma.m16n8k16.f32.f16.f16.f32, parts: 2, run: 2}
//     - instr: mma.m16n8k8.f64.f64.f64.f64
//       fma-chain: true
//
// Every error is an InputError at "file:line:column": unknown or missing keys, values out of range,
// an instruction that does not parse, a lowering naming an instruction the profile lacks.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "mmaemu/reference/model.hpp"

namespace mmaemu::profiles {

struct ProfileFile {
  std::string name;
  ref::Arch arch = ref::Arch::sm90;
  bool keep_builtin = false;
  std::vector<ref::InstructionModel> instructions;  // lowerings name `via`; resolved on install
  std::string origin;                                // the file, for messages
};

// Reads and checks a profile file (the lowerings are checked against the profile it would install).
ProfileFile load_profile_file(const std::filesystem::path& path);

// Loads `path` and installs it for its architecture (ref::install_profile). Returns what was installed.
ProfileFile install_profile_file(const std::filesystem::path& path);

// The YAML text of a profile; load_profile_file reads it back to the same models. `comments`, when
// given, holds one comment per instruction (same order), written above its entry.
std::string profile_yaml(const ProfileFile& profile, const std::vector<std::string>& comments = {});

// One instruction's model in the file's words, e.g. "block k=16 frac-bits=25 ..." (reports, tests).
std::string describe_model(const ref::InstructionModel& m);

// Whether two models compute the same way: equal blocks (or both lowered the same way, or both fma
// chains). Field by field; the names of the fields that differ go to *diff when given.
bool same_model(const ref::InstructionModel& x, const ref::InstructionModel& y, std::string* diff = nullptr);

}  // namespace mmaemu::profiles
