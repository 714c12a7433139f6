// The archive reader on small synthetic archives: what it reads, and how it names bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "harness/core/errors.hpp"
#include "harness/external/km_archive.hpp"
#include "harness/external/tests/synthetic_archive.hpp"

namespace mmaemu::external {
namespace {

using testing::binary32;
using testing::Members;
using testing::TempDir;
using testing::v100_members;
using testing::with;
using testing::without;
using testing::write_tar_xz;

// The `where` of the InputError that reading `members` throws ("" when none is thrown).
std::string error_where(const Members& members, std::string* what = nullptr) {
  TempDir dir;
  const auto path = dir.path() / "km.tar.xz";
  write_tar_xz(path, members);
  try {
    read_km_archive(path);
  } catch (const InputError& e) {
    if (what) *what = e.what();
    const std::string prefix = path.string() + "!";
    return e.where().rfind(prefix, 0) == 0 ? e.where().substr(prefix.size()) : e.where();
  }
  return "";
}

TEST(KmArchive, ReadsEverySetWithItsValues) {
  TempDir dir;
  const auto path = dir.path() / "km.tar.xz";
  write_tar_xz(path, v100_members());
  const auto sets = read_km_archive(path);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].out, "fp16");
  EXPECT_EQ(sets[1].out, "fp32");
  for (const KmSet& s : sets) {
    EXPECT_EQ(s.gpu, "V100");
    EXPECT_EQ(s.format, "fp16");
    EXPECT_EQ(s.k, 4);
    EXPECT_EQ(s.cases(), 2u);
    ASSERT_EQ(s.a.size(), 8u);
    EXPECT_EQ(s.a[4], 0x3f000000u);
    EXPECT_EQ(s.b[7], 0x40000000u);
    EXPECT_EQ(s.c, (std::vector<uint32_t>{0x3f800000u, 0u}));
    EXPECT_EQ(s.d, (std::vector<uint32_t>{0x40a00000u, 0x40800000u}));
    EXPECT_EQ(s.a_file, path.string() + "!km/V100/fp16/a_V100_fp16.txt");
    EXPECT_EQ(s.d_file, path.string() + "!km/V100/fp16/d_V100_" + s.out + ".txt");
  }
}

TEST(KmArchive, AcceptsCrlfAndAMissingFinalNewline) {
  const std::string a = "km/V100/fp16/a_V100_fp16.txt";
  TempDir dir;
  const auto path = dir.path() / "km.tar.xz";
  write_tar_xz(path, with(v100_members(), a, "3f800000 3f800000 3f800000 3f800000\r\n3f000000 3f000000 3f000000 4f000000"));
  const auto sets = read_km_archive(path);
  ASSERT_EQ(sets.size(), 2u);
  // Both lines read, the last value without its newline, the carriage return not taken as a digit.
  const std::vector<uint32_t> want = {0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                      0x3f000000u, 0x3f000000u, 0x3f000000u, 0x4f000000u};
  for (const KmSet& s : sets) EXPECT_EQ(s.a, want) << s.out;
}

TEST(KmArchive, MalformedHexNamesFileAndLine) {
  const std::string a = "km/V100/fp16/a_V100_fp16.txt";
  std::string what;
  EXPECT_EQ(error_where(with(v100_members(), a,
                             "3f800000 3f800000 3f800000 3f800000\n3f000000 3fz00000 3f000000 3f000000\n"),
                        &what),
            a + ":2");
  EXPECT_NE(what.find("3fz00000"), std::string::npos) << what;
  EXPECT_EQ(error_where(with(v100_members(), a,
                             "3f800000 3f800000 3f800000 3f800000\n3f000000 3f000000 3f000000 13f000000\n")),
            a + ":2");
}

TEST(KmArchive, RaggedLineNamesFileAndLine) {
  const std::string b = "km/V100/fp16/b_V100_fp16.txt";
  EXPECT_EQ(error_where(with(v100_members(), b,
                             "3f800000 3f800000 3f800000 3f800000\n40000000 40000000 40000000\n")),
            b + ":2");
}

TEST(KmArchive, MalformedBinaryNamesFileAndLine) {
  const std::string d = "km/V100/fp16/d_V100_fp32.txt";
  EXPECT_EQ(error_where(with(v100_members(), d, binary32(0x40a00000) + "\n0100000010\n")), d + ":2");
  EXPECT_EQ(error_where(with(v100_members(), d, binary32(0x40a00000).replace(3, 1, "2") + "\n")), d + ":1");
}

TEST(KmArchive, FilesOfDifferentLengthsAreRejected) {
  const std::string c = "km/V100/fp16/c_V100_fp32.txt";
  EXPECT_EQ(error_where(with(v100_members(), c, binary32(0) + "\n")), c);
}

TEST(KmArchive, MissingFileIsNamed) {
  std::string what;
  EXPECT_EQ(error_where(without(v100_members(), "km/V100/fp16/c_V100_fp32.txt"), &what), "km/V100/fp16");
  EXPECT_NE(what.find("c_V100_fp32.txt"), std::string::npos) << what;
}

TEST(KmArchive, UnusableArchiveIsAnInputError) {
  TempDir dir;
  EXPECT_THROW(read_km_archive(dir.path() / "absent.tar.xz"), InputError);
  const auto junk = dir.path() / "junk.tar.xz";
  { std::ofstream(junk) << "not an archive"; }
  EXPECT_THROW(read_km_archive(junk), InputError);
}

TEST(KmArchive, ArchiveWithoutSetsIsAnInputError) {
  TempDir dir;
  const auto path = dir.path() / "empty.tar.xz";
  write_tar_xz(path, {{"km/LICENCE", "BSD\n"}});
  try {
    read_km_archive(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), path.string());
  }
}

}  // namespace
}  // namespace mmaemu::external
