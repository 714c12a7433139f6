// The record of the frozen device code (release/device-code.json, harness/signoff/device_code.hpp).
#include "fuzz/fuzz_support.hpp"
#include "harness/signoff/device_code.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("release/device-code.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::signoff::read_device_code_record(file); });
  return 0;
}
