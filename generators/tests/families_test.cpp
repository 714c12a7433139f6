#include "generators/families.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "generators/format_bits.hpp"

namespace mmaemu::gen {
namespace {

const std::vector<std::string> kInstructions = {
    "mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k16.f32.bf16.bf16.f32", "mma.m16n8k16.f16.f16.f16.f16",
    "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k32.f32.e4m3.e4m3.f32", "mma.m16n8k32.f32.e5m2.e5m2.f32",
    "wgmma.m64n8k16.f32.f16.f16",    "wgmma.m64n8k16.f32.bf16.bf16",   "wgmma.m64n8k8.f32.tf32.tf32",
    "wgmma.m64n8k32.f32.e4m3.e4m3",  "wgmma.m64n8k32.f32.e5m2.e5m2"};

ref::Instruction instr(const std::string& name) {
  std::string why;
  auto in = ref::parse_instruction(name, &why);
  EXPECT_TRUE(in.has_value()) << why;
  return *in;
}

struct Tiles {
  std::vector<uint32_t> a, b, c;
  bool operator==(const Tiles&) const = default;
};

Tiles make(Family f, const ref::Instruction& in, uint64_t seed) {
  Tiles t{std::vector<uint32_t>(in.m * in.k), std::vector<uint32_t>(in.k * in.n), std::vector<uint32_t>(in.m * in.n)};
  generate_tile(f, in, seed, t.a.data(), t.b.data(), t.c.data());
  return t;
}

template <class Pred>
double share(const std::vector<uint32_t>& x, Pred pred) {
  size_t hits = 0;
  for (uint32_t v : x) hits += pred(v) ? 1 : 0;
  return static_cast<double>(hits) / static_cast<double>(x.size());
}

TEST(Families, NamesRoundTrip) {
  EXPECT_EQ(all_families().size(), 9u);
  for (Family f : all_families()) {
    EXPECT_EQ(parse_family(family_name(f)), f);
    EXPECT_FALSE(family_description(f).empty());
  }
  EXPECT_FALSE(parse_family("gaussian").has_value());
}

TEST(Families, PairProbeIsParsedButNotAnInstructionFamily) {
  EXPECT_EQ(parse_family("pair_probe"), Family::pair_probe);
  for (Family f : all_families()) EXPECT_NE(f, Family::pair_probe);
}

// Each A row holds one +2^40 among ones, each B column one -2^40 among ones; formats without fp32's
// exponent range are refused rather than given saturated values.
TEST(Families, PairProbePlantsOnePairPerOutput) {
  const auto in = instr("wgmma.m64n8k8.f32.tf32.tf32");
  const Tiles t = make(Family::pair_probe, in, 5);
  const uint32_t one = 0x3F800000u, plus_big = 0x53800000u, minus_big = 0xD3800000u;  // 1, +2^40, -2^40
  for (int m = 0; m < in.m; ++m) {
    int big = 0;
    for (int k = 0; k < in.k; ++k) {
      const uint32_t v = t.a[m * in.k + k];
      EXPECT_TRUE(v == one || v == plus_big) << m << " " << k;
      big += v == plus_big;
    }
    EXPECT_EQ(big, 1) << m;
  }
  for (int n = 0; n < in.n; ++n) {
    int big = 0;
    for (int k = 0; k < in.k; ++k) big += t.b[k * in.n + n] == minus_big;
    EXPECT_EQ(big, 1) << n;
  }
  EXPECT_NE(make(Family::pair_probe, in, 5), make(Family::pair_probe, in, 6));
  EXPECT_THROW(make(Family::pair_probe, instr("wgmma.m64n8k16.f32.f16.f16"), 1), std::invalid_argument);
}

TEST(Families, DeterministicFromSeed) {
  for (const auto& name : kInstructions)
    for (Family f : all_families()) {
      const auto in = instr(name);
      EXPECT_EQ(make(f, in, 42), make(f, in, 42)) << name << " " << family_name(f);
      EXPECT_NE(make(f, in, 42), make(f, in, 43)) << name << " " << family_name(f);
    }
}

TEST(Families, PatternsFitTheFormatAndAreNeverAllZero) {
  for (const auto& name : kInstructions)
    for (Family f : all_families())
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const auto in = instr(name);
        const Tiles t = make(f, in, seed);
        const FormatBits fa(in.a), fb(in.b), fc(in.c);
        auto nonzero = [](const FormatBits& fmt) {
          return [&fmt](uint32_t v) { return fmt.classify(v) != ref::ValueClass::zero; };
        };
        auto fits = [](const FormatBits& fmt) { return [&fmt](uint32_t v) { return (v & ~fmt.storage_mask()) == 0; }; };
        SCOPED_TRACE(name + " " + std::string(family_name(f)) + " seed " + std::to_string(seed));
        EXPECT_EQ(share(t.a, fits(fa)), 1.0);
        EXPECT_EQ(share(t.b, fits(fb)), 1.0);
        EXPECT_EQ(share(t.c, fits(fc)), 1.0);
        EXPECT_GT(share(t.a, nonzero(fa)), 0.0);
        EXPECT_GT(share(t.b, nonzero(fb)), 0.0);
        EXPECT_GT(share(t.c, nonzero(fc)), 0.0);
      }
}

TEST(Families, SubnormalFamilyYieldsSubnormals) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a), fc(in.c);
    const Tiles t = make(Family::subnormal, in, 7);
    auto sub = [](const FormatBits& fmt) {
      return [&fmt](uint32_t v) { return fmt.classify(v) == ref::ValueClass::subnormal; };
    };
    EXPECT_GT(share(t.a, sub(fa)), 0.2) << name;
    EXPECT_GT(share(t.c, sub(fc)), 0.2) << name;
  }
}

TEST(Families, SpecialsYieldNanInfAndZero) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a), fc(in.c);
    std::vector<uint32_t> a, c;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
      const Tiles t = make(Family::specials, in, seed);
      a.insert(a.end(), t.a.begin(), t.a.end());
      c.insert(c.end(), t.c.begin(), t.c.end());
    }
    EXPECT_GT(share(a, [&](uint32_t v) { return fa.is_nan(v); }), 0.0) << name;
    if (fa.has_inf()) {
      EXPECT_GT(share(a, [&](uint32_t v) { return fa.is_inf(v); }), 0.0) << name;
    }
    EXPECT_GT(share(a, [&](uint32_t v) { return fa.classify(v) == ref::ValueClass::zero; }), 0.0) << name;
    EXPECT_GT(share(c, [&](uint32_t v) { return fc.is_inf(v); }), 0.0) << name;
    EXPECT_GT(share(c, [&](uint32_t v) { return fc.is_nan(v); }), 0.0) << name;
  }
}

TEST(Families, SmallIntTilesHaveExactResults) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a), fb(in.b), fc(in.c), fd(in.d);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      const Tiles t = make(Family::small_int, in, seed);
      for (int m = 0; m < in.m; ++m)
        for (int n = 0; n < in.n; ++n) {
          double sum = fc.to_double(t.c[m * in.n + n]);
          for (int k = 0; k < in.k; ++k) {
            const double x = fa.to_double(t.a[m * in.k + k]), y = fb.to_double(t.b[k * in.n + n]);
            ASSERT_EQ(x, std::trunc(x));
            ASSERT_LE(std::fabs(x), 8.0);
            ASSERT_LE(std::fabs(y), 8.0);
            sum += x * y;
          }
          ASSERT_TRUE(fd.encode_exact(sum).has_value()) << name << " sum " << sum;
          ASSERT_LT(std::fabs(sum), 2048.0);
        }
      if (in.a == ref::FormatId::tf32) {  // clean patterns: exact whatever the hardware does with low bits
        EXPECT_EQ(share(t.a, [](uint32_t v) { return (v & 0x1FFF) != 0; }), 0.0);
      }
    }
  }
}

TEST(Families, Tf32OperandsCarryLowBits) {
  const auto in = instr("mma.m16n8k8.f32.tf32.tf32.f32");
  for (Family f : all_families()) {
    if (f == Family::small_int) continue;
    const Tiles t = make(f, in, 3);
    const double min_share = f == Family::specials ? 0.6 : 1.0;
    EXPECT_GE(share(t.a, [](uint32_t v) { return (v & 0x1FFF) != 0; }), min_share) << family_name(f);
    EXPECT_GE(share(t.b, [](uint32_t v) { return (v & 0x1FFF) != 0; }), min_share) << family_name(f);
  }
}

TEST(Families, CancellationPairsCancel) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a), fb(in.b);
    const Tiles t = make(Family::cancellation, in, 5);
    int exact_pairs = 0;
    for (int k0 = 0; k0 + 1 < in.k; k0 += 2) {
      bool all = true;
      for (int m = 0; m < in.m && all; ++m)
        for (int n = 0; n < in.n && all; ++n)
          all = fa.to_double(t.a[m * in.k + k0]) * fb.to_double(t.b[k0 * in.n + n]) ==
                -fa.to_double(t.a[m * in.k + k0 + 1]) * fb.to_double(t.b[(k0 + 1) * in.n + n]);
      exact_pairs += all;
    }
    EXPECT_GT(exact_pairs, 0) << name;
  }
}

TEST(Families, DominantHasOneDominantTerm) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a), fb(in.b), fc(in.c);
    int dominated = 0, total = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const Tiles t = make(Family::dominant, in, seed);
      for (int m = 0; m < in.m; ++m)
        for (int n = 0; n < in.n; ++n) {
          std::vector<double> terms{std::fabs(fc.to_double(t.c[m * in.n + n]))};
          for (int k = 0; k < in.k; ++k)
            terms.push_back(std::fabs(fa.to_double(t.a[m * in.k + k]) * fb.to_double(t.b[k * in.n + n])));
          double max = 0, sum = 0;
          for (double x : terms) max = std::max(max, x), sum += x;
          dominated += max >= 0.5 * sum;
          ++total;
        }
    }
    EXPECT_GT(dominated, total / 2) << name;
  }
}

TEST(Families, CarryChainUsesAllOnesSignificands) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fa(in.a);
    const Tiles t = make(Family::carry_chain, in, 9);
    EXPECT_GT(share(t.a, [&](uint32_t v) { return ((v / fa.ulp_bit()) & fa.frac_mask()) == fa.frac_mask(); }), 0.9)
        << name;
  }
}

TEST(Families, ExtremeAccumulatorsReachMaxFinite) {
  for (const auto& name : kInstructions) {
    const auto in = instr(name);
    const FormatBits fc(in.c);
    const Tiles t = make(Family::extreme_acc, in, 11);
    EXPECT_GT(share(t.c, [&](uint32_t v) { return (v & ~(1u << (fc.width() - 1))) == fc.max_finite(false); }), 0.05)
        << name;
  }
}

TEST(Families, RandomBitsCoverTheWholeExponentRange) {
  const auto in = instr("mma.m16n8k16.f32.f16.f16.f32");
  const FormatBits fa(in.a);
  std::vector<uint32_t> a;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Tiles t = make(Family::random_bits, in, seed);
    a.insert(a.end(), t.a.begin(), t.a.end());
  }
  EXPECT_GT(share(a, [&](uint32_t v) { return fa.classify(v) == ref::ValueClass::subnormal; }), 0.0);
  EXPECT_GT(share(a, [&](uint32_t v) { return fa.is_nan(v) || fa.is_inf(v); }), 0.0);
}

}  // namespace
}  // namespace mmaemu::gen
