// read_npy (harness/core/npy.hpp): every .npy operand, fixture and recorded D goes through it.
// A value read back is serialised again: what the reader accepts must be a well-formed array.
#include "fuzz/fuzz_support.hpp"
#include "harness/core/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("input.npy", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::NpyArray a = mmaemu::read_npy(file);
    if (a.values.size() != a.word_count()) __builtin_trap();  // the reader's own promise (two words an 8-byte element)
    (void)mmaemu::npy_bytes(a);
  });
  return 0;
}
