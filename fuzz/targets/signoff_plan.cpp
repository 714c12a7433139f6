// Sign-off plans (harness/signoff/plan.hpp): release/signoff-*.yaml. The plan's tier paths are
// relative to it; the shipped tier files are not beside the scratch copy, so a plan naming them
// stops at "missing file" like any other (the tier target reads tier files).
#include "fuzz/fuzz_support.hpp"
#include "harness/signoff/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("release/plan.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::signoff::load_plan(file); });
  return 0;
}
