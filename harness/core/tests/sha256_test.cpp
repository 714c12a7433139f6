#include <gtest/gtest.h>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu {
namespace {

TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FileEqualsBytes) {
  testing::TempDir dir;
  std::string big(3 << 20, 'x');  // larger than one read chunk
  for (size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>(i);
  write_file_atomic(dir / "f", big);
  EXPECT_EQ(sha256_file(dir / "f"), sha256_hex(big));
}

TEST(Sha256, MissingFileIsAnInputError) { EXPECT_THROW(sha256_file("/nonexistent/mmaemu/f"), InputError); }

}  // namespace
}  // namespace mmaemu
