// --shard I/N: the parser's contract and the partition rule.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

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

// A fake environment for shard_from_environment: the variables a test sets, nothing else.
std::map<std::string, std::string> g_env;
const char* fake_getenv(const char* name) {
  const auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}
ShardInfo from_env(std::map<std::string, std::string> env, std::string* source = nullptr) {
  g_env = std::move(env);
  return shard_from_environment("--shard", source, fake_getenv);
}

// Each scheduler's variables give the shard its job meant: Slurm's ids from any first one, a
// Kubernetes Indexed Job's 0-based index, GitLab's 1-based node, or MMAEMU_SHARD, in that order.
TEST(ShardAuto, EachSchedulersVariablesGiveTheShard) {
  std::string source;
  ShardInfo s = from_env({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "3"},
                          {"SLURM_ARRAY_TASK_MAX", "6"}},
                         &source);
  EXPECT_EQ(shard_text(s), "3/4");
  EXPECT_NE(source.find("SLURM_ARRAY_TASK_ID=5"), std::string::npos) << source;
  EXPECT_EQ(shard_text(from_env({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"}})),
            "1/2");
  EXPECT_EQ(shard_text(from_env({{"JOB_COMPLETION_INDEX", "2"}, {"MMAEMU_SHARD_COUNT", "3"}})), "3/3");
  EXPECT_EQ(shard_text(from_env({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "5"}})), "1/5");
  // MMAEMU_SHARD first: a script's own choice over the scheduler's.
  EXPECT_EQ(shard_text(from_env({{"MMAEMU_SHARD", "2/7"}, {"JOB_COMPLETION_INDEX", "0"}, {"MMAEMU_SHARD_COUNT", "3"}})),
            "2/7");
  EXPECT_EQ(shard_directory_name(ShardInfo{2, 7}), "shard-2-of-7");
}

TEST(ShardAuto, NoSchedulerOrABadValueIsAnInputErrorSayingWhy) {
  const auto why = [](std::map<std::string, std::string> env) -> std::string {
    try {
      from_env(std::move(env));
    } catch (const InputError& e) {
      EXPECT_EQ(e.where(), "--shard");
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(why({}).find("no scheduler says which shard"), std::string::npos);
  EXPECT_NE(why({{"JOB_COMPLETION_INDEX", "0"}}).find("needs MMAEMU_SHARD_COUNT"), std::string::npos);
  EXPECT_NE(why({{"SLURM_ARRAY_TASK_ID", "1"}}).find("without SLURM_ARRAY_TASK_COUNT"), std::string::npos);
  EXPECT_NE(why({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                 {"SLURM_ARRAY_TASK_MAX", "6"}})
                .find("not 4 consecutive tasks"),
            std::string::npos);
  EXPECT_NE(why({{"JOB_COMPLETION_INDEX", "3"}, {"MMAEMU_SHARD_COUNT", "3"}}).find("is not a shard"), std::string::npos);
  EXPECT_NE(why({{"CI_NODE_INDEX", "x"}, {"CI_NODE_TOTAL", "2"}}).find("CI_NODE_INDEX='x' is not a whole number"),
            std::string::npos);
  EXPECT_NE(why({{"MMAEMU_SHARD", "3/2"}}).find("I/N"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu
