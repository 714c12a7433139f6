// The measured certainty of the call kinds the resolver was not fitted on (call-kinds.json beside a
// resolver, harness/api/call_kinds.hpp), and what it makes of a resolution: whatever file the reader
// accepts must give a certainty between 0 and 1.
#include <cstdlib>

#include "fuzz/fuzz_support.hpp"
#include "harness/api/call_kinds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("call-kinds.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::api::MeasuredCallKinds m = mmaemu::api::read_call_kinds(file);
    mmaemu::lt::Resolution plain;
    plain.config = mmaemu::lt::LtAlgoConfig{};
    plain.certainty = 1;
    mmaemu::lt::LtCall call;
    for (const size_t batch : {1u, 8u}) {
      call.batch = batch;
      call.bias = batch == 1;
      const auto r = mmaemu::api::resolve_call_kind(plain, call, m);
      if (!(r.certainty >= 0 && r.certainty <= 1)) std::abort();
    }
  });
  return 0;
}
