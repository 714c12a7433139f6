// A capture of a model's calls (harness/cublaslt/lt_capture.hpp, JSON Lines): whatever the reader accepts
// must find each of its calls again by the call it holds, and say whether it suits a profile.
#include <cstdlib>

#include "fuzz/fuzz_support.hpp"
#include "harness/cublaslt/lt_capture.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("capture.jsonl", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::lt::Capture cap = mmaemu::lt::Capture::read(file);
    for (const auto& c : cap.calls())
      if (cap.find(c.call) != &c) std::abort();
    (void)cap.incompatible(130100, 132);
  });
  return 0;
}
