// --shard I/N: the parser's contract and the partition rule.
#include <gtest/gtest.h>

#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/shard.hpp"

namespace mmaemu {
namespace {

TEST(Shard, ParsesIndexAndCount) {
  const ShardInfo s = parse_shard("2/3");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 3u);
  EXPECT_TRUE(s.sharded());
  EXPECT_EQ(shard_text(s), "2/3");
  EXPECT_FALSE(parse_shard("1/1").sharded());
  EXPECT_EQ(shard_text(parse_shard("1/1")), "");
}

TEST(Shard, RejectsWhatIsNoShard) {
  for (const char* bad : {"3/2", "0/0", "0/3", "1/0", "a/b", "2", "", "/", "1/", "/2", "-1/2", "1/2/3", " 1/2", "1/9999999"}) {
    try {
      parse_shard(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.where(), "--shard") << bad;
      EXPECT_NE(std::string(e.what()).find("I/N"), std::string::npos) << e.what();
    }
  }
}

TEST(Shard, EveryPositionFallsInExactlyOneShard) {
  for (unsigned n = 1; n <= 5; ++n)
    for (size_t p = 0; p < 23; ++p) {
      std::set<unsigned> owners;
      for (unsigned i = 1; i <= n; ++i)
        if (in_shard(p, ShardInfo{i, n})) owners.insert(i);
      ASSERT_EQ(owners.size(), 1u) << "position " << p << " of " << n << " shards";
      EXPECT_EQ(*owners.begin(), p % n + 1);
    }
}

}  // namespace
}  // namespace mmaemu
