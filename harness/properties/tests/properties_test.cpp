// The property machinery: RapidCheck runs come back as outcomes, failures shrink to small
// counterexamples, the same seed gives the same run, and a property fails where its exception says.
#include <gtest/gtest.h>

#include <rapidcheck.h>

#include <set>

#include "harness/properties/arith_cases.hpp"
#include "generators/rng.hpp"
#include "harness/properties/operand_gen.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/property.hpp"
#include "harness/properties/rc_check.hpp"

namespace mmaemu::props {
namespace {

using ref::FormatId;

TEST(RunGroup, AHoldingPropertyRunsItsWholeBudget) {
  const GroupOutcome g = run_group("always", Expect::holds, "", {1, 50}, [] {
    const int x = *rc::gen::inRange(0, 10);
    if (x < 0) refute({});
  });
  EXPECT_EQ(g.cases, 50);
  EXPECT_FALSE(g.counterexample);
  EXPECT_TRUE(g.error.empty());
}

TEST(RunGroup, AFalsePropertyShrinksToTheSmallestCounterexample) {
  // False for every x >= 17: the minimal counterexample is 17.
  const GroupOutcome g = run_group("x below 17", Expect::holds, "", {3, 200}, [] {
    const int x = *rc::gen::inRange(0, 1000);
    if (x >= 17) {
      Counterexample c;
      c.what = "x";
      c.inputs = std::to_string(x);
      refute(std::move(c));
    }
  });
  ASSERT_TRUE(g.counterexample);
  EXPECT_EQ(g.counterexample->inputs, "17");
  EXPECT_GT(g.counterexample->shrinks, 0);
}

TEST(RunGroup, TheSameSeedGivesTheSameRunAndAnotherSeedAnother) {
  const auto first_failure = [](uint64_t seed) {
    return run_group("x", Expect::holds, "", {seed, 100}, [] {
      const uint32_t x = *rc::gen::noShrink(rc::gen::arbitrary<uint32_t>());
      if (x % 5 == 0) {
        Counterexample c;
        c.inputs = std::to_string(x);
        refute(std::move(c));
      }
    });
  };
  const GroupOutcome a = first_failure(7), b = first_failure(7), c = first_failure(8);
  ASSERT_TRUE(a.counterexample && b.counterexample && c.counterexample);
  EXPECT_EQ(a.counterexample->inputs, b.counterexample->inputs);
  EXPECT_EQ(a.cases, b.cases);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_NE(a.seed, c.seed);
}

TEST(RunGroup, APropertyThatDiscardsEverythingGivesUpAsAnError) {
  const GroupOutcome g = run_group("nothing", Expect::holds, "", {1, 20}, [] {
    (void)*rc::gen::inRange(0, 3);
    discard("never in the domain");
  });
  EXPECT_EQ(g.cases, 0);
  EXPECT_FALSE(g.error.empty());
}

TEST(GroupSeed, DependsOnTheSuiteSeedAndTheGroup) {
  EXPECT_EQ(group_seed(1, "negation/sm90"), group_seed(1, "negation/sm90"));
  EXPECT_NE(group_seed(1, "negation/sm90"), group_seed(2, "negation/sm90"));
  EXPECT_NE(group_seed(1, "negation/sm90"), group_seed(1, "negation/sm80"));
}

// Shrinking must end: each candidate is simpler (zero, one, fewer fraction bits, a smaller exponent,
// the sign cleared), so following the first candidate reaches +0 in a bounded number of steps.
TEST(SimplerPatterns, EveryChainEndsAtZero) {
  gen::Rng rng(5);
  for (FormatId f : {FormatId::fp32, FormatId::tf32, FormatId::fp16, FormatId::bf16, FormatId::e4m3, FormatId::e5m2}) {
    const uint32_t mask = ref::spec(f).storage_bits == 32 ? 0xFFFFFFFFu : (1u << ref::spec(f).storage_bits) - 1u;
    for (int i = 0; i < 2000; ++i) {
      uint32_t x = static_cast<uint32_t>(rng.next()) & mask;
      // Follow the last candidate (the smallest step), the longest way down.
      int steps = 0;
      for (auto c = simpler_patterns(f, x); !c.empty(); c = simpler_patterns(f, x)) {
        for (uint32_t y : c) EXPECT_EQ(y & ~mask, 0u) << ref::format_name(f);
        x = c.back();
        ASSERT_LT(++steps, 200) << ref::format_name(f) << " does not end";
      }
      EXPECT_EQ(x, 0u);
    }
  }
}

TEST(SimplerPatterns, ZeroHasNoneAndOneOnlyZero) {
  EXPECT_TRUE(simpler_patterns(FormatId::fp16, 0).empty());
  EXPECT_EQ(simpler_patterns(FormatId::fp16, 0x3c00), std::vector<uint32_t>{0});
}

TEST(SmallIntegers, LimitsAreExactIntegersOfTheFormat) {
  EXPECT_EQ(exact_integer_limit(FormatId::fp16), 2048);
  EXPECT_EQ(exact_integer_limit(FormatId::bf16), 256);
  EXPECT_EQ(exact_integer_limit(FormatId::e4m3), 16);
  EXPECT_EQ(exact_integer_limit(FormatId::e5m2), 8);
  EXPECT_EQ(exact_integer_limit(FormatId::fp32), 1L << 24);
}

// The negation property holds on every shipped profile (none truncates by floor), and its listed
// exception is real: on sm90's fp32 block with floor truncation it finds a counterexample.
TEST(Negation, FailsUnderFloorTruncationAsItsExceptionSays) {
  ref::InstructionModel floor = ref::lookup(ref::Arch::sm90, "mma.m16n8k16.f32.bf16.bf16.f32");
  floor.block.truncation = ref::Truncation::floor;
  const GroupOutcome g = run_group("negation/floor", Expect::fails, "floor", {1, 200}, [&] { negation_case(floor); });
  ASSERT_TRUE(g.counterexample) << "the property held in " << g.cases << " cases under floor truncation";
  EXPECT_NE(g.counterexample->expected, g.counterexample->got);

  const ref::InstructionModel& shipped = ref::lookup(ref::Arch::sm90, "mma.m16n8k16.f32.bf16.bf16.f32");
  const GroupOutcome h = run_group("negation/sm90", Expect::holds, "", {1, 100}, [&] { negation_case(shipped); });
  EXPECT_FALSE(h.counterexample) << h.counterexample->inputs;
}

// A backend that drops subnormal B operands: the counterexample shrinks to a handful of non-zero
// elements, written with the command that replays it.
class DropsSubnormals : public kernels::Backend {
 public:
  std::string name() const override { return "fake"; }
  std::string description() const override { return "drops subnormal B"; }
  Declined declines(const ref::InstructionModel&, const kernels::GemmShape&, bool) const override {
    return std::nullopt;
  }
  kernels::RunInfo run(const kernels::GemmProblem& p) const override {
    std::vector<uint32_t> b(p.B, p.B + kernels::b_count(p.shape));
    for (uint32_t& x : b)
      if (ref::decode(p.model->instr.b, x).cls == ref::ValueClass::subnormal) x = 0;
    const kernels::GemmShape& s = p.shape;
    const size_t steps = ref::gemm_steps(*p.model, s.K);
    for (size_t t = 0; t < s.batch; ++t)
      ref::gemm(*p.model, s.M, s.N, s.K, p.A + t * s.M * s.K, b.data() + t * s.K * s.N, p.C + t * s.M * s.N,
                p.D + t * s.M * s.N, p.trace ? p.trace + t * s.M * s.N * steps : nullptr);
    return {"fake", 0};
  }
};

TEST(BackendEqualsReference, ShrinksAFaultToAFewElements) {
  const DropsSubnormals fake;
  Scope scope;
  scope.backends = {&fake};
  scope.profiles = {ref::Arch::sm80};
  const Property* p = find_property("backend-equals-reference");
  ASSERT_NE(p, nullptr);
  const auto groups = p->check(scope, {1, 300});
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_TRUE(groups[0].counterexample) << "a backend that drops subnormals passed " << groups[0].cases << " cases";
  const Counterexample& c = *groups[0].counterexample;
  // The shrunk inputs: count the non-zero patterns in "a=[...] b=[...] c=[...]".
  size_t nonzero = 0;
  std::string word;
  for (char ch : c.inputs.substr(c.inputs.find("a=["))) {
    if (std::isxdigit(static_cast<unsigned char>(ch))) {
      word += ch;
    } else {
      if (word.size() >= 2 && word.find_first_not_of('0') != std::string::npos) ++nonzero;
      word.clear();
    }
  }
  EXPECT_LE(nonzero, 4u) << c.inputs;
  EXPECT_GE(nonzero, 2u) << c.inputs;  // a subnormal in B and a non-zero A to multiply it
  ASSERT_EQ(c.files.size(), 3u);
  EXPECT_NE(c.replay.front().find("mmaemu gemm"), std::string::npos);
  EXPECT_NE(c.replay.front().find("--backend fake"), std::string::npos);
}

TEST(Catalogue, NamesAreUniqueAndEachPropertyStatesItsClaim) {
  std::set<std::string> names;
  for (const Property& p : catalogue()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_FALSE(p.statement.empty()) << p.name;
    EXPECT_TRUE(p.check) << p.name;
  }
  EXPECT_GE(names.size(), 15u);
}

}  // namespace
}  // namespace mmaemu::props
