#include <gtest/gtest.h>

#include <fstream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu {
namespace {

NpyArray sample(int word_bytes) {
  NpyArray a;
  a.word_bytes = word_bytes;
  a.shape = {2, 3, 4};
  const uint32_t mask = word_bytes == 4 ? 0xffffffffu : (1u << (8 * word_bytes)) - 1;
  for (size_t i = 0; i < a.size(); ++i) a.values.push_back(static_cast<uint32_t>(0x9e3779b9u * (i + 1)) & mask);
  return a;
}

TEST(Npy, RoundTripsEveryWidth) {
  testing::TempDir dir;
  for (int w : {1, 2, 4}) {
    const NpyArray a = sample(w);
    const auto path = dir / ("a" + std::to_string(w) + ".npy");
    write_npy(path, a);
    const NpyArray b = read_npy(path);
    EXPECT_EQ(b.word_bytes, w);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.values, a.values);
  }
}

TEST(Npy, HeaderIsPaddedTo64Bytes) {
  const std::string bytes = npy_bytes(sample(2));
  const size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  EXPECT_EQ(bytes[10 + header_len - 1], '\n');
}

TEST(Npy, TruncatedDataNamesTheFile) {
  testing::TempDir dir;
  std::string bytes = npy_bytes(sample(2));
  bytes.resize(bytes.size() - 3);
  const auto path = dir / "short.npy";
  write_file_atomic(path, bytes);
  try {
    read_npy(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), path.string());
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(Npy, TruncatedHeaderIsAnInputError) {
  testing::TempDir dir;
  const auto path = dir / "header.npy";
  write_file_atomic(path, npy_bytes(sample(1)).substr(0, 30));
  EXPECT_THROW(read_npy(path), InputError);
}

TEST(Npy, RejectsSignedAndFloatDtypes) {
  testing::TempDir dir;
  for (const char* descr : {"<f4", "<i2", ">u2"}) {
    std::string bytes = npy_bytes(sample(4));
    const size_t at = bytes.find("<u4");
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at, 3, descr);
    const auto path = dir / "wrong.npy";
    write_file_atomic(path, bytes);
    try {
      read_npy(path);
      FAIL() << "accepted " << descr;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where(), path.string());
      EXPECT_NE(std::string(e.what()).find("dtype"), std::string::npos) << e.what();
    }
  }
}

TEST(Npy, ShapeWhoseSizeOverflowsIsAnInputError) {
  testing::TempDir dir;
  NpyArray a;
  a.word_bytes = 4;
  a.shape = {4611686018427387904, 4};  // 2^64 elements wrap around to 0: an empty file would "fit"
  std::string bytes = npy_bytes(a);
  const auto path = dir / "huge.npy";
  write_file_atomic(path, bytes);
  EXPECT_THROW(read_npy(path), InputError);
}

TEST(Npy, MissingFileIsAnInputError) {
  EXPECT_THROW(read_npy("/nonexistent/mmaemu/a.npy"), InputError);
}

}  // namespace
}  // namespace mmaemu
