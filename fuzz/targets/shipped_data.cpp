// The shipped-data manifest (release/shipped-data.yaml, harness/signoff/shipped_data.hpp) that the
// sign-off's data check reads.
#include "fuzz/fuzz_support.hpp"
#include "harness/signoff/shipped_data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("release/shipped-data.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::signoff::read_shipped_data_manifest(file); });
  return 0;
}
