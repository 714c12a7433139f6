// The third-party recordings' archive (harness/external/km_archive.hpp), read with libarchive
// straight from the compressed file: any archive format libarchive detects reaches the reader.
#include "fuzz/fuzz_support.hpp"
#include "harness/external/km_archive.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("km.tar.xz", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::external::read_km_archive(file); });
  return 0;
}
