// `mmaemu --profile FILE` (profiles::load_profile_file), and the profile installed and run: whatever
// file the reader accepts must install and compute one output per instruction, or be an InputError.
#include "fuzz/fuzz_support.hpp"
#include "harness/profiles/profile_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("profile.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const auto profile = mmaemu::profiles::install_profile_file(file);
    for (const auto& m : mmaemu::ref::instructions_of(profile.arch)) {
      if (m.fma_chain || m.instr.scale) continue;  // fp64 takes two words; scales need scale operands
      const std::vector<uint32_t> a(static_cast<size_t>(m.instr.k), 0x1u), b(static_cast<size_t>(m.instr.k), 0x1u);
      (void)mmaemu::ref::dot(m, a.data(), b.data(), 0x1u);
    }
    mmaemu::ref::restore_builtin_profile(profile.arch);
  });
  return 0;
}
