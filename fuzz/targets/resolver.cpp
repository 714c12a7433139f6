// A library profile's resolver file (lt::Resolver::load, `mmaemu resolve --resolver FILE`, `gemm --algo
// auto`), and what the resolver read answers for a few calls: whatever file the reader accepts must
// resolve them or refuse with an InputError (a malformed tree must never walk out of its arrays).
#include "fuzz/fuzz_support.hpp"
#include "harness/cublaslt/lt_resolver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("resolver.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::lt::Resolver r = mmaemu::lt::Resolver::load(file);
    mmaemu::lt::LtCall call;
    for (const mmaemu::ref::FormatId f : {mmaemu::ref::FormatId::bf16, mmaemu::ref::FormatId::e4m3}) {
      call.a = call.b = f;
      for (const size_t k : {16u, 1000u, 16384u}) {
        call.M = k / 16 + 1;
        call.N = 4096;
        call.K = k;
        (void)r.resolve(call);
      }
    }
  });
  return 0;
}
