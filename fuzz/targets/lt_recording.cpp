// cuBLASLt recordings (harness/cublaslt/lt_recording.hpp): DIR/recording.json as T2's replay reads
// it. Every call read back is given to the library model's refusal rules, as the replay does before it
// computes anything.
#include "fuzz/fuzz_support.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_recording.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("recording/recording.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::lt::Recording rec = mmaemu::lt::read_recording(file.parent_path());
    for (const mmaemu::lt::RecordedCall& c : rec.calls) {
      (void)mmaemu::ref::library_refuses(mmaemu::lt::library_call(c.call));
      for (const mmaemu::lt::RecordedRun& run : c.runs) (void)mmaemu::lt::run_group(c.call, run.config);
    }
  });
  return 0;
}
