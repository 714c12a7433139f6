// The keys of the kernel tiers' suites (kernel-conformance, native-parity), read into a plan: which
// backends, profiles, instructions, input families, operations. Every value is checked before
// anything runs; a bad one is an InputError at its "file:line:column".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/families.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/tiers/suite_spec.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::tiers {

// The GPU backends of CUDA builds (kernels/registry.hpp). A build without CUDA lacks them; a tier file
// may still name them (its GPU suites skip there), while any other unknown name is a typo.
const std::vector<std::string>& gpu_backend_names();

// Why no GPU backend can run here ("built without CUDA", "no CUDA device: <CUDA's message>"), or nullopt.
std::optional<std::string> gpu_unavailable_reason();

// The instructions a suite covers on a profile: the profile's catalogue (wgmma and tcgen05 at N = 8 only),
// filtered by `instructions` (all, mma, wgmma, tcgen05 or PTX names) and `formats` (A or B in the list).
struct InstructionFilter {
  bool all = true;
  bool mma = false, wgmma = false, tcgen05 = false;
  std::vector<std::string> names;
  std::vector<ref::FormatId> formats;  // empty: any
  bool selects(const ref::InstructionModel& m) const;
};

// The format part of a "profile x format" count: "fp16", or "e4m3xe5m2" for mixed inputs.
std::string format_label(const ref::Instruction& in);

// Schema key builders shared by the kinds, so that the two read the same words the same way.
KeySpec backends_key();      // backends: [all] or names
KeySpec profiles_key();      // profiles: [all] or sm names
KeySpec instructions_key();  // instructions: [all] | mma | wgmma | tcgen05 | PTX names
KeySpec formats_key();       // formats: [fp16, e4m3, ...]
KeySpec families_key();      // families: [all] or family names
KeySpec seed_key();          // seed: a whole number

// Readers of those keys; `available` is what the build (or a test) offers.
std::vector<const kernels::Backend*> read_backends(const SuiteSpec& spec, const std::string& key,
                                                   const std::vector<const kernels::Backend*>& available,
                                                   bool include_reference);
std::vector<ref::Arch> read_profiles(const SuiteSpec& spec);
InstructionFilter read_instruction_filter(const SuiteSpec& spec);
std::vector<gen::Family> read_families(const SuiteSpec& spec, const SchemaValue* value);  // nullptr: all

// Checks that the filter selects at least one instruction over `profiles`, and that every PTX name it
// lists is selected somewhere. Returns the instructions per profile.
std::vector<std::vector<const ref::InstructionModel*>> select_instructions(const SuiteSpec& spec,
                                                                           const std::vector<ref::Arch>& profiles,
                                                                           const InstructionFilter& filter);

// Fails loudly on a backend name that is neither available nor a GPU backend of CUDA builds.
void check_backend_names(const SuiteSpec& spec, const std::string& key,
                         const std::vector<const kernels::Backend*>& available);

}  // namespace mmaemu::tiers
