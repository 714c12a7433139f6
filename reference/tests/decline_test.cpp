// The decline codes' one list: every code listed once, in enum order, under a name tier files can
// spell (lower case and dashes) that reads back to the same code.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "mmaemu/reference/decline.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu {
namespace {

TEST(DeclineCodes, EveryCodeListedOnceInOrderUnderAReadableName) {
  std::set<std::string_view> names;
  int expected = 0;
  for (const DeclineCodeInfo& i : decline_codes()) {
    EXPECT_EQ(static_cast<int>(i.code), expected++) << i.name;
    EXPECT_TRUE(names.insert(i.name).second) << "listed twice: " << i.name;
    for (char ch : i.name)
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '-') << i.name;
    EXPECT_FALSE(i.meaning.empty()) << i.name;
    ASSERT_TRUE(parse_decline_code(i.name).has_value()) << i.name;
    EXPECT_EQ(*parse_decline_code(i.name), i.code);
    EXPECT_EQ(decline_code_name(i.code), i.name);
  }
  EXPECT_EQ(decline_codes().size(), static_cast<size_t>(DeclineCode::library_configuration_without_rules) + 1);  // the last
  EXPECT_FALSE(parse_decline_code("foreign_target").has_value());  // names, not enumerators
  EXPECT_FALSE(parse_decline_code("").has_value());
}

TEST(DeclineCodes, TheLibraryModelDeclinesAnAlgorithmWithoutRulesByCodeAndId) {
  ref::LibraryAlgo gemv;
  gemv.algo_id = 13;
  const Declined why = ref::model_declines(gemv);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->code, DeclineCode::library_algorithm_without_rules);
  EXPECT_EQ(why->algorithm, 13);
  for (int id : ref::modelled_algorithms()) {
    ref::LibraryAlgo known;
    known.algo_id = id;
    EXPECT_FALSE(ref::model_declines(known).has_value()) << id;
  }
}

}  // namespace
}  // namespace mmaemu
