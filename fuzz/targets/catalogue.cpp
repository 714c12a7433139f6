// The mutant catalogue (harness/mutate/catalogue.hpp): mutants/catalogue.yaml, read by T4.
#include "fuzz/fuzz_support.hpp"
#include "harness/mutate/catalogue.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("catalogue.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::mutate::load_catalogue(file); });
  return 0;
}
