// The library model's rules (reference/library_gemm.hpp) on inputs whose results are known
// independently: exact small integers, std::fma for the epilogue forms, hand-rounded tf32 operands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/library/library_gemm.hpp"
#include "mmaemu/reference/library_gemm.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::ref {
namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t bf16_of(float f) { return bits_of(f) >> 16; }  // exact for the small integers used here

// A x B with A[m][k] = (k % 7) - 3 and B[k][n] = ((k + n) % 5) - 2: every partial sum an exact integer.
struct IntegerGemm {
  LibraryCall call;
  std::vector<uint32_t> a, b, c;
  explicit IntegerGemm(size_t K, float alpha, float beta, float c_value) {
    call.a = call.b = FormatId::bf16;
    call.c = call.d = FormatId::fp32;
    call.M = 1;
    call.N = 2;
    call.K = K;
    call.alpha = alpha;
    call.beta = beta;
    for (size_t k = 0; k < K; ++k) a.push_back(bf16_of(static_cast<float>(static_cast<int>(k % 7) - 3)));
    for (size_t k = 0; k < K; ++k)
      for (size_t n = 0; n < 2; ++n) b.push_back(bf16_of(static_cast<float>(static_cast<int>((k + n) % 5) - 2)));
    c = {bits_of(c_value), bits_of(c_value)};
  }
  float exact_sum(size_t n) const {
    float s = 0;
    for (size_t k = 0; k < call.K; ++k) s += float_of(a[k] << 16) * float_of(b[k * 2 + n] << 16);
    return s;
  }
  std::vector<uint32_t> run(int split_k) const {
    std::vector<uint32_t> d(2);
    LibraryAlgo algo;
    algo.split_k = split_k;
    library_gemm(call, algo, a.data(), b.data(), c.data(), d.data());
    return d;
  }
};

TEST(LibraryModel, EpilogueFormDependsOnSplitK) {
  // alpha and beta inexact; C chosen (by search, from 1/3 upwards) so that fma(alpha, acc, beta*C) and
  // fma(beta, C, alpha*acc) round differently for the first output: the test can tell the forms apart.
  const float alpha = 0.1f, beta = 0.3f;
  const float acc0 = IntegerGemm(1000, alpha, beta, 0.0f).exact_sum(0);
  float cval = 1.0f / 3.0f;
  for (int i = 0; i < 1000 && std::fma(alpha, acc0, beta * cval) == std::fma(beta, cval, alpha * acc0); ++i)
    cval = std::nextafter(cval, 1.0f);
  ASSERT_NE(std::fma(alpha, acc0, beta * cval), std::fma(beta, cval, alpha * acc0));
  const IntegerGemm g(1000, alpha, beta, cval);
  const auto one = g.run(1), three = g.run(3);
  for (size_t n = 0; n < 2; ++n) {
    const float acc = g.exact_sum(n);
    EXPECT_EQ(one[n], bits_of(std::fma(alpha, acc, beta * cval))) << n;
    EXPECT_EQ(three[n], bits_of(std::fma(beta, cval, alpha * acc))) << n;
  }
  EXPECT_NE(one[0], three[0]);
}

// Algorithm 62 (e4m3, fast accumulation) finishes with fma(beta, C, alpha' * acc) even without split-K,
// alpha' = alpha * (scale_a * scale_b). scale_b and C are searched so that the unsplit form (mutant
// 88) and (alpha * scale_a) * scale_b (mutant 89) each give other bits: the test tells all three apart.
TEST(LibraryModel, Algorithm62FinishesWithTheBetaFormAndScalesFirst) {
  LibraryCall c;
  c.a = c.b = FormatId::e4m3;
  c.c = c.d = FormatId::fp32;
  c.M = 4;  // four equal rows: D's leading dimension a multiple of 16 bytes, as FP8 needs (library_refuses)
  c.N = 1;
  c.K = 64;
  c.fast_accum = true;
  c.alpha = 0.3f;
  c.beta = -1.7f;
  c.scale_a = 0.3f;
  c.scale_b = 1.7f;
  std::vector<uint32_t> a, b;
  float acc = 0.0f;  // small integers: the e8m13 chain and fp32 hold every partial sum exactly
  for (size_t k = 0; k < c.K; ++k) {
    const float x = static_cast<float>(static_cast<int>(k % 7) - 3), y = static_cast<float>(static_cast<int>(k % 5) - 2);
    a.push_back(convert(FormatId::fp32, bits_of(x), FormatId::e4m3, Rounding::nearest_even));
    b.push_back(convert(FormatId::fp32, bits_of(y), FormatId::e4m3, Rounding::nearest_even));
    acc += x * y;
  }
  ASSERT_NE(acc, 0.0f);
  auto scales_first = [&] { return c.alpha * (c.scale_a * c.scale_b); };
  auto alpha_first = [&] { return c.alpha * c.scale_a * c.scale_b; };
  for (int i = 0; i < 1000 && scales_first() * acc == alpha_first() * acc; ++i) c.scale_b = std::nextafter(c.scale_b, 2.0f);
  ASSERT_NE(scales_first() * acc, alpha_first() * acc);
  float cval = 1.0f / 3.0f;
  auto expected = [&] { return std::fma(c.beta, cval, scales_first() * acc); };
  for (int i = 0; i < 100000 && (expected() == std::fma(scales_first(), acc, c.beta * cval) ||
                                 expected() == std::fma(c.beta, cval, alpha_first() * acc));
       ++i)
    cval = std::nextafter(cval, 1.0f);
  ASSERT_NE(expected(), std::fma(scales_first(), acc, c.beta * cval));
  ASSERT_NE(expected(), std::fma(c.beta, cval, alpha_first() * acc));
  LibraryAlgo algo;
  algo.algo_id = 62;
  std::vector<uint32_t> rows;
  for (size_t m = 0; m < c.M; ++m) rows.insert(rows.end(), a.begin(), a.end());
  const std::vector<uint32_t> C(c.M, bits_of(cval));
  std::vector<uint32_t> d(c.M);
  library_gemm(c, algo, rows.data(), b.data(), C.data(), d.data());
  EXPECT_EQ(d[0], bits_of(expected()));
  algo.algo_id = 66;  // the other FP8 kernels: the unsplit form and (alpha * scale_a) * scale_b
  library_gemm(c, algo, rows.data(), b.data(), C.data(), d.data());
  EXPECT_EQ(d[0], bits_of(std::fma(alpha_first(), acc, c.beta * cval)));
}

// fp32 algorithm 55 deals K blocks of its stage depth to the slices in turn, and with custom option 1
// pairs slice t with slice t + ceil(S/2). A pair probe (ones, +2^40 at p, -2^40 at q) gives K minus the
// products under the node where p and q meet; the expected values are the H200's (pair_probe
// recordings in fixtures/cublaslt-h200/rules), spelled out here for S = 5 at K = 512 (104 products per
// slice but 96 in the last).
TEST(LibraryModel, Algorithm55InterleavesBlocksAndPairsSlices) {
  LibraryCall c;
  c.a = c.b = c.c = c.d = FormatId::fp32;
  c.M = c.N = 1;
  c.K = 512;
  auto probe = [&](int custom, size_t p, size_t q) {
    std::vector<uint32_t> a(c.K, bits_of(1.0f)), b(c.K, bits_of(1.0f));
    a[p] = bits_of(std::ldexp(1.0f, 40));
    b[q] = bits_of(-std::ldexp(1.0f, 40));
    LibraryAlgo algo;
    algo.algo_id = 55;
    algo.split_k = 5;
    algo.stage_k = 8;
    algo.custom = custom;
    const uint32_t C = 0;
    uint32_t d = 0;
    library_gemm(c, algo, a.data(), b.data(), &C, &d);
    return static_cast<float>(c.K) - float_of(d);
  };
  // Slice 0 holds k = 0-7, 40-47, 80-87, ...: q = 45 is its 14th product.
  EXPECT_EQ(probe(0, 0, 45), 14.0f);
  // custom 0: slices added in order, (((s0 + s1) + s2) + s3) + s4.
  EXPECT_EQ(probe(0, 0, 8), 208.0f);
  EXPECT_EQ(probe(0, 0, 32), 512.0f);
  // custom 1, S = 5 (h = 3): ((s0 + s3) + s4) + s1 + s2.
  EXPECT_EQ(probe(1, 0, 24), 208.0f);
  EXPECT_EQ(probe(1, 0, 32), 304.0f);
  EXPECT_EQ(probe(1, 0, 8), 408.0f);
  EXPECT_EQ(probe(1, 8, 16), 512.0f);
}

// The plan's reduction order, which the reference and the kernels' library GEMM both follow: every
// slice that exists once, in the order the recordings show.
TEST(LibraryModel, TheReductionOrderNamesEachExistingSliceOnce) {
  LibraryCall c;
  c.a = c.b = c.c = c.d = FormatId::fp32;
  c.M = c.N = 1;
  LibraryAlgo algo;
  algo.algo_id = 55;
  algo.stage_k = 8;
  algo.custom = 1;
  algo.split_k = 5;
  c.K = 512;
  const std::vector<ReductionStep> paired5 = {{0, 3}, {4}, {1}, {2}};
  EXPECT_EQ(plan_library_gemm(c, algo).reduction, paired5);
  for (int custom : {0, 1})
    for (int S = 2; S <= 300; S += 7) {
      algo.custom = custom;
      algo.split_k = S;
      const LibraryPlan plan = plan_library_gemm(c, algo);
      std::vector<int> seen(static_cast<size_t>(S), 0);
      for (const ReductionStep& step : plan.reduction) {
        ++seen.at(step.first);
        if (step.paired()) ++seen.at(step.second);
      }
      EXPECT_EQ(seen, std::vector<int>(static_cast<size_t>(S), 1)) << "S = " << S << ", custom " << custom;
      if (custom == 0) {
        EXPECT_EQ(plan.reduction.front(), ReductionStep{0}) << S;
      }
    }
  // Consecutive slices past K do not exist: K = 300 in chunks of 64 (bf16, 128-byte grains) is 5 of 8.
  LibraryCall bf;
  bf.a = bf.b = FormatId::bf16;
  bf.c = bf.d = FormatId::fp32;
  bf.M = bf.N = 1;
  bf.K = 300;
  LibraryAlgo split;
  split.split_k = 8;
  const std::vector<ReductionStep> five = {{0}, {1}, {2}, {3}, {4}};
  EXPECT_EQ(plan_library_gemm(bf, split).reduction, five);
  bf.K = 0;
  EXPECT_EQ(plan_library_gemm(bf, split).reduction, std::vector<ReductionStep>{{0}});
}

// EPILOGUE_BIAS in bf16, where the three places of the bias give three answers. Two slices of 64 (the
// 128-byte grain) with exact integer partials and a bias of 1: output 0 has partials 256 and 1, output 1
// has 1 and 256 (bf16 holds even integers only from 256 up; ties go to even).
//   added once (unsplit, scheme 2):   round(1 + 257) = 258            and 258
//   in place (scheme 1):              round(round(1 + 256) + 1) = 256 and round(round(1 + 1) + 256) = 258
//   after D's rounding (scheme 4):    round(round(257) + 1) = 256     and 256
TEST(LibraryModel, TheBiasEntersWhereTheReductionSchemeSays) {
  LibraryCall call;
  call.a = call.b = call.c = call.d = FormatId::bf16;
  call.M = 1;
  call.N = 2;
  call.K = 128;
  call.beta = 1.0f;
  call.bias = true;
  std::vector<uint32_t> a(128, bf16_of(1.0f)), b(128 * 2, 0), c = {bf16_of(1.0f), bf16_of(1.0f)};
  for (size_t k = 0; k < 64; ++k) b[k * 2] = bf16_of(4.0f);        // output 0: slice 0 sums to 256
  b[64 * 2] = bf16_of(1.0f);                                        // ... slice 1 to 1
  b[0 * 2 + 1] = bf16_of(1.0f);                                     // output 1: slice 0 sums to 1
  for (size_t k = 64; k < 128; ++k) b[k * 2 + 1] = bf16_of(4.0f);  // ... slice 1 to 256
  auto run = [&](int algo_id, int split_k, int reduction) {
    LibraryAlgo algo;
    algo.algo_id = algo_id;
    algo.split_k = split_k;
    algo.reduction = reduction;
    std::vector<uint32_t> d(2);
    library_gemm(call, algo, a.data(), b.data(), c.data(), d.data());
    return std::vector<float>{float_of(d[0] << 16), float_of(d[1] << 16)};
  };
  EXPECT_EQ(run(66, 1, 0), (std::vector<float>{258, 258}));
  EXPECT_EQ(run(66, 2, 2), (std::vector<float>{258, 258}));
  EXPECT_EQ(run(23, 2, 1), (std::vector<float>{256, 258}));
  EXPECT_EQ(run(23, 2, 4), (std::vector<float>{256, 256}));
  // Past the recordings: named, not computed.
  LibraryAlgo unrecorded;
  unrecorded.algo_id = 66;
  unrecorded.split_k = 2;
  unrecorded.reduction = 1;
  ASSERT_TRUE(model_declines(call, unrecorded));
  EXPECT_EQ(model_declines(call, unrecorded)->code, DeclineCode::library_configuration_without_rules);
  call.alpha = 2.0f;
  ASSERT_TRUE(model_declines(call, LibraryAlgo{}));
  EXPECT_EQ(model_declines(call, LibraryAlgo{})->code, DeclineCode::library_configuration_without_rules);
}

// REDUCTION_SCHEME_INPLACE on the mma.sync kernels without a bias: the slices add into D in D's type
// (fixtures/cublaslt-h200/mma-sync-fp16). bf16, two slices of 64 with exact integer partials: output 0
// has 257 and 1, output 1 has 1 and 257.
//   in place (scheme 1):   round(round(257) + 1) = round(256 + 1) = 256  and round(round(1) + 257) = 258
//   an fp32 sum (scheme 2): round(258) = 258                              and 258
TEST(LibraryModel, InPlaceSlicesAddIntoDInItsType) {
  LibraryCall call;
  call.a = call.b = call.c = call.d = FormatId::bf16;
  call.M = 1;
  call.N = 2;
  call.K = 128;
  std::vector<uint32_t> a(128, bf16_of(1.0f)), b(128 * 2, 0), c(2, 0);
  for (size_t k = 0; k < 63; ++k) b[k * 2] = bf16_of(4.0f);        // output 0: slice 0 sums to 257
  b[63 * 2] = bf16_of(5.0f);
  b[64 * 2] = bf16_of(1.0f);                                        // ... slice 1 to 1
  b[0 * 2 + 1] = bf16_of(1.0f);                                     // output 1: slice 0 sums to 1
  for (size_t k = 64; k < 127; ++k) b[k * 2 + 1] = bf16_of(4.0f);  // ... slice 1 to 257
  b[127 * 2 + 1] = bf16_of(5.0f);
  // The reference, and the kernels' CPU engines (their own in-place path: kernels/arith/library_dot.hpp).
  for (const auto engine : {kernels::LibraryEngine::reference, kernels::LibraryEngine::host, kernels::LibraryEngine::cpu}) {
    auto run = [&](int algo_id, int reduction) {
      LibraryAlgo algo;
      algo.algo_id = algo_id;
      algo.split_k = 2;
      algo.reduction = reduction;
      std::vector<uint32_t> d(2);
      kernels::library_gemm(engine, call, algo, a.data(), b.data(), c.data(), d.data());
      return std::vector<float>{float_of(d[0] << 16), float_of(d[1] << 16)};
    };
    const std::string name(kernels::library_engine_name(engine));
    EXPECT_EQ(run(23, 1), (std::vector<float>{256, 258})) << name;
    EXPECT_EQ(run(24, 1), (std::vector<float>{256, 258})) << name;
    EXPECT_EQ(run(23, 2), (std::vector<float>{258, 258})) << name;
  }
  EXPECT_TRUE(plan_library_gemm(call, [] { LibraryAlgo x; x.algo_id = 23; x.split_k = 2; x.reduction = 1; return x; }())
                  .in_place_slices);
}

// fp16 algorithm 24 at an undefined stage depth chains mma.sync k8 over K tiles of 32 (as bf16's k8
// kernel does) and finishes with fma(beta, C, alpha' * acc); at a stage depth of 64 it chains k16 over
// tiles of 64 (fixtures/cublaslt-h200/mma-sync-fp16, T2).
TEST(LibraryModel, Fp16Algorithm24ChainsK8AtAnUndefinedStageDepth) {
  LibraryCall call;
  call.a = call.b = FormatId::fp16;
  call.c = call.d = FormatId::fp16;
  call.M = call.N = 3;
  call.K = 41;
  call.beta = -1.7f;
  LibraryAlgo algo;
  algo.algo_id = 24;
  const LibraryPlan undefined = plan_library_gemm(call, algo);
  ASSERT_NE(undefined.instruction, nullptr);
  EXPECT_EQ(undefined.instruction->instr.name, "mma.m16n8k8.f32.f16.f16.f32");
  EXPECT_EQ(undefined.residue_first, 32u);
  EXPECT_TRUE(undefined.beta_fma);
  algo.stage_k = 64;
  const LibraryPlan staged = plan_library_gemm(call, algo);
  EXPECT_EQ(staged.instruction->instr.name, "mma.m16n8k16.f32.f16.f16.f32");
  EXPECT_EQ(staged.residue_first, 64u);
}

TEST(LibraryModel, BetaZeroLeavesCUnread) {
  IntegerGemm g(64, 2.0f, 0.0f, 0.0f);
  g.c = {0x7FC00000u, 0x7FC00000u};  // NaN in C must not reach D when beta = 0
  const auto d = g.run(1);
  for (size_t n = 0; n < 2; ++n) EXPECT_EQ(d[n], bits_of(2.0f * g.exact_sum(n)));
}

// An fp32 NaN whose payload lies only in the 13 bits tf32 drops is a NaN to the library, not Inf (on an
// H200: reports/h200/t5/tf32_nan_probe.json), and so is D.
TEST(LibraryModel, Tf32KeepsANaNWhosePayloadTf32Drops) {
  LibraryCall call;
  call.a = call.b = FormatId::tf32;
  call.c = call.d = FormatId::fp32;
  call.M = call.N = 1;
  call.K = 32;
  std::vector<uint32_t> a(32, 0), b(32, bits_of(1.0f)), c(1, 0), d(1, 0);
  for (uint32_t nan : {0x7F801DD1u, 0xFF800C0Fu, 0x7F800001u}) {
    a[5] = nan;
    library_gemm(call, LibraryAlgo{}, a.data(), b.data(), c.data(), d.data());
    EXPECT_EQ(d[0], 0x7FFFFFFFu) << std::hex << nan;
  }
  a[5] = 0xFF800000u;  // -Inf stays -Inf
  library_gemm(call, LibraryAlgo{}, a.data(), b.data(), c.data(), d.data());
  EXPECT_EQ(d[0], 0xFF800000u);
}

TEST(LibraryModel, SplitKChunksFollowTheGrain) {
  LibraryCall c;
  c.a = c.b = FormatId::bf16;
  c.K = 4096;
  EXPECT_EQ(split_grain(c, {}), 64u);
  EXPECT_EQ(split_chunk(c, {3, 0}), 1408u);  // ceil(64 / 3) = 22 grains
  c.K = 12000;
  EXPECT_EQ(split_chunk(c, {9, 0}), 1344u);  // ceil(ceil(12000 / 64) / 9) = 21 grains
  c.a = c.b = FormatId::e4m3;
  c.K = 32768;
  EXPECT_EQ(split_grain(c, {}), 128u);
  EXPECT_EQ(split_chunk(c, {12, 0}), 2816u);
  c.a = c.b = FormatId::tf32;
  EXPECT_EQ(split_grain(c, {}), 32u);
  // tf32 and fp32 kernels with K no multiple of 32: 16-byte grains, chunk = ceil(K / S) rounded up to 4.
  c.K = 1040;
  EXPECT_EQ(split_grain(c, {}), 4u);
  EXPECT_EQ(split_chunk(c, {24, 16}), 44u);
  c.a = c.b = FormatId::fp32;
  EXPECT_EQ(split_chunk(c, {32, 8}), 36u);
  EXPECT_EQ(split_chunk(c, {132, 8}), 8u);
  c.K = 32768;
  EXPECT_EQ(split_chunk(c, {66, 8}), 512u);
}

// Algorithm 66 under split-K leaves K's tail out when K = q grains + r, q a multiple of S and r < S
// (cuBLASLt 13.1 on sm_90; fixtures/cublaslt-h200/ktail). All-ones operands count the values summed.
TEST(LibraryModel, Algorithm66DropsTheKTailWhenTheGrainsDivideAmongTheSlices) {
  struct Case {
    size_t K;
    int S;
    size_t summed;  // K, or q grains where the tail is dropped
  };
  const Case cases[] = {
      {11528, 9, 11520},  // 180 grains of 64 + 8: 180 % 9 = 0 and 8 < 9: dropped (the reported shapes)
      {11528, 10, 11520}, {776, 12, 768}, {2312, 9, 2304},
      {11528, 8, 11528},  // 180 % 8 = 4: the tail is in the last slice
      {8648, 6, 8648},    // 135 % 6 = 3
      {792, 12, 792},     // 12 % 12 = 0 but r = 24 >= 12: floor(792 / 12) = 66 rounds up to two grains
      {11520, 9, 11520},  // no tail
  };
  for (const Case& t : cases) {
    LibraryCall c;
    c.a = c.b = FormatId::bf16;
    c.c = c.d = FormatId::fp32;
    c.M = c.N = 1;
    c.K = t.K;
    LibraryAlgo algo;
    algo.algo_id = 66;
    algo.split_k = t.S;
    EXPECT_EQ(split_slices_end(c, algo), t.summed) << "K " << t.K << " split-K " << t.S;
    const std::vector<uint32_t> ones(t.K, bf16_of(1.0f));
    uint32_t zero = 0, d = 0;
    library_gemm(c, algo, ones.data(), ones.data(), &zero, &d);
    EXPECT_EQ(float_of(d), static_cast<float>(t.summed)) << "K " << t.K << " split-K " << t.S;
    // Algorithm 20 shares whole grains out and sums every value of K.
    algo.algo_id = 20;
    EXPECT_EQ(split_slices_end(c, algo), t.K);
  }
  // FP8: grains of 128, and K a multiple of 16, so a tail is never shorter than a split count up to 16:
  // K = 12 grains + 16 under split-K 12 keeps its tail, as recorded.
  LibraryCall f;
  f.a = f.b = FormatId::e4m3;
  f.c = f.d = FormatId::bf16;
  f.K = 12 * 128 + 16;
  LibraryAlgo algo;
  algo.algo_id = 66;
  algo.split_k = 12;
  EXPECT_EQ(split_slices_end(f, algo), f.K);
  algo.split_k = 24;  // a tail shorter than S: left out (the rule; not recorded for FP8)
  f.K = 24 * 128 + 16;
  EXPECT_EQ(split_slices_end(f, algo), 24u * 128);
}

TEST(LibraryModel, Tf32OperandsAreRoundedToNearestEven) {
  LibraryCall c;
  c.a = c.b = FormatId::tf32;
  c.c = c.d = FormatId::fp32;
  c.M = c.N = c.K = 1;
  const uint32_t one = bits_of(1.0f);
  const uint32_t C = 0;
  uint32_t d = 0;
  // 1 + 3 * 2^-11: halfway between 1 + 2^-10 and 1 + 2^-9, ties to even: 1 + 2^-9 (truncation: 1 + 2^-10).
  const uint32_t tie_up = 0x3F803000u;
  library_gemm(c, {}, &tie_up, &one, &C, &d);
  EXPECT_EQ(d, 0x3F804000u);
  // 1 + 2^-11: halfway between 1 and 1 + 2^-10: ties to even, 1.
  const uint32_t tie_down = 0x3F801000u;
  library_gemm(c, {}, &tie_down, &one, &C, &d);
  EXPECT_EQ(d, one);  // ties away from zero would give 1 + 2^-10
  // 1 + 3 * 2^-12: above halfway, so up to 1 + 2^-10 (truncation: 1). With the two ties, each of
  // truncation, ties-away and ties-to-odd fails one of these checks.
  const uint32_t above_half = 0x3F801800u;
  library_gemm(c, {}, &above_half, &one, &C, &d);
  EXPECT_EQ(d, 0x3F802000u);
}

TEST(LibraryModel, RefusesWhatTheLibraryRefuses) {
  LibraryCall c;
  c.a = c.b = FormatId::e5m2;
  c.K = 64;
  EXPECT_TRUE(library_refuses(c));
  c.b = FormatId::e4m3;
  EXPECT_FALSE(library_refuses(c));
  c.K = 1000;
  EXPECT_TRUE(library_refuses(c));
  c.a = FormatId::e4m3;
  c.d = FormatId::bf16;
  c.fast_accum = true;
  EXPECT_FALSE(library_refuses(c));  // algorithm 62
  c.d = FormatId::fp32;
  EXPECT_TRUE(library_refuses(c));
  c.a = c.b = FormatId::bf16;
  EXPECT_FALSE(library_refuses(c));
  // Operand types without a matmul in the model are refused (not looked up: that crashed once).
  for (FormatId f : {FormatId::fp64, FormatId::e2m1, FormatId::e3m2}) {
    c.a = c.b = f;
    ASSERT_TRUE(library_refuses(c)) << format_name(f);
    EXPECT_EQ(library_refuses(c)->code, DeclineCode::library_refuses) << library_refuses(c)->detail;
    EXPECT_THROW(plan_library_gemm(c, LibraryAlgo{}), std::invalid_argument);
  }
}

}  // namespace
}  // namespace mmaemu::ref
