// Fixture manifests (harness/tiers/fixture_manifest.hpp), schema mmaemu-fixtures/1. The files a
// manifest names are looked for beside it in the scratch directory, where a.npy ... d.npy of one
// small tile set are kept (written at start-up), so that a manifest naming them reaches the sha256
// check and the shape checks of load_fixture_arrays too.
#include "fuzz/fuzz_support.hpp"
#include "harness/core/npy.hpp"
#include "harness/tiers/fixture_manifest.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One tile of mma.m16n8k16.f32.bf16.bf16.f32 (A 16x16 u2, B 16x8 u2, C and D 16x8 u4), all zero.
  const auto dir = mmaemu::fuzz::scratch_dir() / "set" / "mma.m16n8k16.f32.bf16.bf16.f32";
  std::filesystem::create_directories(dir);
  auto put = [&](const char* name, int bytes, std::vector<size_t> shape) {
    mmaemu::NpyArray a;
    a.word_bytes = bytes;
    a.shape = std::move(shape);
    a.values.assign(a.size(), 0);
    mmaemu::write_npy(dir / name, a);
  };
  put("a.npy", 2, {1, 16, 16});
  put("b.npy", 2, {1, 16, 8});
  put("c.npy", 4, {1, 16, 8});
  put("d.npy", 4, {1, 16, 8});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("set/manifest.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::FixtureManifest m = mmaemu::load_fixture_manifest(file);
    for (const mmaemu::FixtureInstruction& instr : m.instructions) {
      try {
        (void)mmaemu::load_fixture_arrays(instr);
      } catch (const mmaemu::InputError&) {  // one instruction's files; check the others too
      }
    }
  });
  return 0;
}
