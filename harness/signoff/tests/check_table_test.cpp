#include <gtest/gtest.h>

#include "harness/signoff/check_table.hpp"

namespace mmaemu::signoff {
namespace {

TEST(CheckTable, StatusNames) {
  EXPECT_EQ(status_name(Status::pass), "PASS");
  EXPECT_EQ(status_name(Status::fail), "FAIL");
  EXPECT_EQ(status_name(Status::na), "N/A");
}

TEST(CheckTable, ARowNotRequiredNeverFails) {
  CheckRow r;
  r.status = Status::fail;
  EXPECT_FALSE(row_passes(r));
  r.required = false;
  EXPECT_TRUE(row_passes(r));
  r.required = true;
  r.status = Status::na;
  EXPECT_FALSE(row_passes(r));
  r.status = Status::pass;
  EXPECT_TRUE(row_passes(r));
}

TEST(CheckTable, ColumnsAreAlignedAndLongCellsShortenedInTheMiddle) {
  const std::string t = format_table({"a", "bb"}, {{"xxxx", "1"}, {"y", std::string(30, 'z') + "END"}}, 12);
  EXPECT_EQ(t, "a     bb\n"
               "xxxx  1\n"
               "y     zzzzz...zEND\n");
}

TEST(CheckTable, PathsShownRelativeToTheBaseWhenBelowIt) {
  EXPECT_EQ(display_path("/r/tiers/T2.yaml", "/r"), "tiers/T2.yaml");
  EXPECT_EQ(display_path("/r/release/../tiers/T2.yaml", "/r"), "tiers/T2.yaml");
  EXPECT_EQ(display_path("/elsewhere/x.yaml", "/r"), "/elsewhere/x.yaml");
}

TEST(CheckTable, ShortSha) {
  EXPECT_EQ(short_sha(std::string(64, 'a')), std::string(12, 'a'));
  EXPECT_EQ(short_sha("missing"), "missing");
}

}  // namespace
}  // namespace mmaemu::signoff
