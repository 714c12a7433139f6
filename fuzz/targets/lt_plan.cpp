// cuBLASLt recording plans (harness/cublaslt/lt_plan.hpp): `mmaemu record --cublaslt PLAN.yaml`.
#include "fuzz/fuzz_support.hpp"
#include "harness/cublaslt/lt_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("plan.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::lt::load_plan(file); });
  return 0;
}
