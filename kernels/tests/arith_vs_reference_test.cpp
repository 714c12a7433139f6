// The kernels' arithmetic on the CPU against the reference, bit for bit: the "host" backend (the
// scalar per-element code) and the "cpu" backend (the same arithmetic on vector lanes) under every
// instruction set this CPU runs (portable, AVX2, AVX-512); every architecture profile, every instruction
// (wgmma at n8), every input family, GEMM shapes with K below, at and past multiples of the
// instruction's K, tiny and larger M and N (past the cpu backend's tiles and K chunks), batches, and
// the accumulator after every step (the trace).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <utility>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "generators/families.hpp"
#include "generators/scales.hpp"
#include "kernels/arith/emu_dot.hpp"
#include "kernels/arith/formats.hpp"
#include "kernels/arith/wide_block.hpp"
#include "kernels/backend.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/lane_plan.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {
namespace {

using ref::FormatId;

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

// --- formats ----------------------------------------------------------------------------------------

const std::vector<FormatId> kFormats = {FormatId::fp32, FormatId::tf32, FormatId::fp16, FormatId::bf16,
                                        FormatId::e4m3, FormatId::e5m2, FormatId::e8m13, FormatId::e2m1,
                                        FormatId::e3m2, FormatId::e2m3};

// Patterns to try in a format: all of them up to 16 bits, a sample of the rest.
std::vector<uint32_t> patterns(FormatId f) {
  const int bits = ref::spec(f).storage_bits;
  std::vector<uint32_t> v;
  if (bits <= 16) {
    for (uint32_t x = 0; x < (1u << bits); ++x) v.push_back(x);
    return v;
  }
  std::mt19937 rng(1234);
  for (int i = 0; i < 100000; ++i) v.push_back(rng());
  for (uint32_t x : {0u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FFFFFFFu, 0x00000001u, 0x007FFFFFu, 0x7F7FFFFFu})
    v.push_back(x);
  return v;
}

TEST(KernelFormats, DefinitionsMatchTheReference) {
  for (FormatId f : kFormats) {
    const ref::FormatSpec& r = ref::spec(f);
    const arith::FmtParams k = arith::fmt_params(kernel_format(f));
    EXPECT_EQ(k.storage_bits, r.storage_bits) << r.name;
    EXPECT_EQ(k.exp_bits, r.exp_bits) << r.name;
    EXPECT_EQ(k.man_bits, r.man_bits) << r.name;
    EXPECT_EQ(k.man_shift, r.man_shift) << r.name;
    EXPECT_EQ(k.bias, r.bias) << r.name;
    EXPECT_EQ(static_cast<int>(k.specials), static_cast<int>(r.specials)) << r.name;
  }
}

TEST(KernelFormats, DecodeAndSpecialsMatchTheReference) {
  for (FormatId f : kFormats) {
    const arith::FmtParams k = arith::fmt_params(kernel_format(f));
    EXPECT_EQ(arith::canonical_nan(k), ref::canonical_nan(f)) << ref::format_name(f);
    for (bool neg : {false, true}) {
      EXPECT_EQ(arith::infinity_bits(k, neg), ref::infinity_bits(f, neg)) << ref::format_name(f);
      EXPECT_EQ(arith::zero_bits(k, neg), ref::zero_bits(f, neg)) << ref::format_name(f);
    }
    for (uint32_t x : patterns(f)) {
      const ref::Decoded r = ref::decode(f, x);
      const arith::Value v = arith::decode(k, x);
      ASSERT_EQ(static_cast<int>(v.cls), static_cast<int>(r.cls)) << ref::format_name(f) << " " << hex(x);
      if (r.cls == ref::ValueClass::nan) continue;
      ASSERT_EQ(v.neg, r.neg) << ref::format_name(f) << " " << hex(x);
      if (r.cls == ref::ValueClass::inf) continue;
      ASSERT_EQ(v.sig, r.sig) << ref::format_name(f) << " " << hex(x);
      if (r.cls != ref::ValueClass::zero) {
        ASSERT_EQ(v.exp, r.exp) << ref::format_name(f) << " " << hex(x);
      }
    }
  }
}

TEST(KernelFormats, ConvertMatchesTheReferenceBothRoundings) {
  for (FormatId from : kFormats)
    for (FormatId to : kFormats) {
      const arith::FmtParams kf = arith::fmt_params(kernel_format(from)), kt = arith::fmt_params(kernel_format(to));
      for (uint32_t x : patterns(from))
        for (bool nearest : {false, true}) {
          const uint32_t want = ref::convert(from, x, to, nearest ? ref::Rounding::nearest_even : ref::Rounding::toward_zero);
          ASSERT_EQ(arith::convert(kf, x, kt, nearest), want)
              << ref::format_name(from) << " " << hex(x) << " -> " << ref::format_name(to) << (nearest ? " RNE" : " RZ");
        }
    }
}

TEST(KernelFormats, RoundToMatchesTheReference) {
  std::mt19937_64 rng(99);
  for (FormatId f : kFormats) {
    const arith::FmtParams k = arith::fmt_params(kernel_format(f));
    for (int i = 0; i < 20000; ++i) {
      const int bits = 1 + static_cast<int>(rng() % 64);
      const uint64_t mag = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
      const int scale = static_cast<int>(rng() % 400) - 250;
      const bool neg = rng() & 1, nearest = rng() & 1, rz_inf = rng() & 1;
      const uint32_t want = ref::round_to_format(f, neg, mag, scale,
                                                 nearest ? ref::Rounding::nearest_even : ref::Rounding::toward_zero, rz_inf);
      ASSERT_EQ(arith::round_to(k, neg, mag, scale, nearest, rz_inf), want)
          << ref::format_name(f) << " mag " << mag << " scale " << scale << " nearest " << nearest;
    }
  }
}

// --- the bound on block sums ------------------------------------------------------------------------

TEST(KernelArith, EveryProfileFitsSixtyFourBitSums) {
  for (ref::Arch a : ref::all_archs())
    for (const ref::InstructionModel& m : ref::instructions_of(a)) {
      if (m.fma_chain) continue;  // fp64: no block sums (arith/fma_chain.hpp)
      const Declined why = arith_declines(m);
      EXPECT_FALSE(why.has_value()) << ref::arch_name(a) << " " << m.instr.name << ": " << (why ? why->detail : "");
    }
  EXPECT_EQ(arith::block_sum_bits(32, 25), 33);
  EXPECT_EQ(arith::block_sum_bits(16, 25), 32);
}

// wide_block.hpp's chain against add_term's sum, both truncations: blocks of 1 to 32 terms, products
// of up to 24-bit significands, from the top of the block through its grid to far below (a zero term,
// or -1 unit when flooring a negative one), every sign; each term a product of two factors as the
// kernels give it.
TEST(KernelArith, WideChainEqualsAddTermSumsBothTruncations) {
  std::mt19937_64 rng(20261205);
  size_t terms = 0;
  for (bool floor : {false, true}) {
    arith::BlockParams bp;
    bp.F = 25;
    bp.L = 32;
    bp.floor_truncation = floor;
    for (int block = 0; block < 20000; ++block) {
      const int emax = static_cast<int>(rng() % 200) - 100;
      const int n = 1 + static_cast<int>(rng() % bp.L);
      int64_t want = 0;
      const double origin = arith::chain_origin(bp, emax);
      double chain = origin;
      for (int t = 0; t < n; ++t) {
        const int frac_bits = static_cast<int>(rng() % 47);  // a product of two fractions up to 23 bits each
        const uint64_t sig = (rng() >> (64 - frac_bits - 2)) | (uint64_t{1} << frac_bits);  // [1, 4) * 2^frac_bits
        const int exp = emax - static_cast<int>(rng() % 80);  // at the top of the block down to far below its grid
        const bool neg = rng() & 1;
        arith::add_term(want, neg, sig, exp, frac_bits, emax, bp);
        // The product as two exact factors: the significand's high and low halves' split is immaterial,
        // so take a power of two as the second factor (its sign random too).
        const int shift = static_cast<int>(rng() % 8);
        const bool neg_b = rng() & 1;
        const double a = static_cast<double>(sig) * arith::pow2(exp - frac_bits - shift);
        const double b = arith::pow2(shift);
        chain = arith::chain_add(bp, chain, neg != neg_b ? -a : a, neg_b ? -b : b);
        ++terms;
      }
      ASSERT_EQ((chain - origin) * arith::pow2(bp.F - emax), static_cast<double>(want))
          << (floor ? "floor" : "toward zero") << ": block " << block << " of " << n << " terms, emax " << emax;
    }
  }
  EXPECT_GT(terms, 500000u);
}

TEST(KernelArith, PartSizesCoverK) {
  for (int K : {0, 1, 3, 4, 5, 31, 32, 33})
    for (int parts : {1, 2, 3})
      for (int run : {1, 2, 4}) {
        int total = 0;
        for (int p = 0; p < parts; ++p) {
          int n = 0;
          for (int k = 0; k < K; ++k) n += (k / run) % parts == p;
          EXPECT_EQ(arith::part_size(K, parts, run, p), n) << K << " " << parts << " " << run << " " << p;
          total += n;
        }
        EXPECT_EQ(total, K);
      }
}

// --- GEMMs against ref::gemm ------------------------------------------------------------------------

struct Gemm {
  GemmShape shape;
  std::vector<uint32_t> A, B, C;
  std::vector<uint32_t> SA, SB;  // block-scaled instructions: [batch][M][S], [batch][S][N]
};

// The scales of a block-scaled instruction's GEMM, from an input family (nothing for the others).
void add_scales(Gemm& g, const ref::Instruction& in, gen::Family fam, uint64_t seed) {
  if (!in.scale) return;
  const GemmShape& s = g.shape;
  const size_t S = ref::scale_count(in, s.K);
  g.SA.resize(s.batch * s.M * S);
  g.SB.resize(s.batch * S * s.N);
  for (size_t t = 0; t < s.batch; ++t)
    gen::generate_scales(fam, in, seed + t, s.M, S, s.N, g.SA.data() + t * s.M * S, g.SB.data() + t * S * s.N);
}

// Operands of a batch of GEMMs from an input family: each batch entry is one generated "tile" of the
// GEMM's own shape.
Gemm make_gemm(const ref::Instruction& in, gen::Family fam, GemmShape s, uint64_t seed) {
  Gemm g{s, std::vector<uint32_t>(a_count(s)), std::vector<uint32_t>(b_count(s)), std::vector<uint32_t>(c_count(s)), {}, {}};
  ref::Instruction shaped = in;
  shaped.m = static_cast<int>(s.M);
  shaped.n = static_cast<int>(s.N);
  shaped.k = static_cast<int>(s.K);
  for (size_t t = 0; t < s.batch; ++t)
    gen::generate_tile(fam, shaped, seed + t, g.A.data() + t * s.M * s.K, g.B.data() + t * s.K * s.N,
                       g.C.data() + t * s.M * s.N);
  add_scales(g, in, fam, seed);
  return g;
}

// Values whose products cluster around a chosen exponent, every sign, one element in eight zero, C
// zero half of the time (else near the same exponent). Aimed at the places where the profile's fixed
// exponent of zero products, the truncation of tiny terms and the sign of a sum that rounds to zero
// decide the bits: just below the zero-product exponent and around the accumulator's subnormal range.
Gemm make_scaled_gemm(const ref::Instruction& in, GemmShape s, int product_exp, uint64_t seed) {
  Gemm g{s, std::vector<uint32_t>(a_count(s)), std::vector<uint32_t>(b_count(s)), std::vector<uint32_t>(c_count(s)), {}, {}};
  std::mt19937_64 rng(seed);
  auto noise = [&](int spread) { return static_cast<int>(rng() % (2 * spread + 1)) - spread; };
  // A value of format f near 2^e (a subnormal when e is below the normal range), random sign and fraction.
  auto near = [&](FormatId f, int e) -> uint32_t {
    const ref::FormatSpec& sp = ref::spec(f);
    if (rng() % 8 == 0) return (rng() & 1) ? ref::zero_bits(f, true) : 0u;
    const int top = (1 << sp.exp_bits) - 2 - sp.bias;  // largest normal exponent (e4m3's top code aside)
    const int biased = std::clamp(e, sp.emin() - 1, top) + sp.bias;  // 0: subnormal
    const uint32_t frac = static_cast<uint32_t>(rng()) & ((1u << sp.man_bits) - 1u);
    const uint32_t low = f == FormatId::tf32 ? static_cast<uint32_t>(rng()) & 0x1FFFu : 0u;
    return ((rng() & 1) ? 1u << (sp.storage_bits - 1) : 0u) | (static_cast<uint32_t>(biased) << (sp.man_shift + sp.man_bits)) |
           (frac << sp.man_shift) | low;
  };
  std::vector<int> row_exp(s.batch * s.M);
  for (auto& e : row_exp) e = product_exp / 2 + noise(3);
  for (size_t i = 0; i < g.A.size(); ++i) g.A[i] = near(in.a, row_exp[i / s.K] + noise(1));
  for (size_t i = 0; i < g.B.size(); ++i) g.B[i] = near(in.b, product_exp - product_exp / 2 + noise(3));
  for (auto& v : g.C) v = (rng() & 1) ? 0u : near(in.c, product_exp + noise(4));
  add_scales(g, in, gen::Family::small_int, seed);  // unit scales: the products stay where aimed
  return g;
}

// Signed zeros only: even rows of A all -0, even columns of B all +0 (so their products are all -0),
// the rest random in sign; C +-0. The sign of an all-zero block (and of -0 + -0) is what it tests.
Gemm make_signed_zero_gemm(const ref::Instruction& in, GemmShape s, uint64_t seed) {
  Gemm g{s, std::vector<uint32_t>(a_count(s)), std::vector<uint32_t>(b_count(s)), std::vector<uint32_t>(c_count(s)), {}, {}};
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < g.A.size(); ++i)
    g.A[i] = ref::zero_bits(in.a, (i / s.K) % 2 == 0 || (rng() & 1));
  for (size_t i = 0; i < g.B.size(); ++i)
    g.B[i] = ref::zero_bits(in.b, (i % s.N) % 2 == 1 && (rng() & 1));
  for (auto& v : g.C) v = ref::zero_bits(in.c, rng() & 1);
  add_scales(g, in, gen::Family::realistic, seed);
  return g;
}

// The product exponents worth aiming at for a model: just below its zero-product exponent, and around
// the smallest subnormal and the smallest normal of the format its blocks round to.
std::vector<int> interesting_product_exps(const ref::InstructionModel& m) {
  const ref::BlockModel& bm = m.lowering ? m.lowering->via_model->block : m.block;
  const ref::FormatSpec& r = ref::spec(bm.block_result);
  std::vector<int> e = {r.emin() - r.man_bits - 2, r.emin() - r.man_bits + 4, r.emin() - 1};
  if (bm.zero_product_exp != INT_MIN) {
    e.push_back(bm.zero_product_exp - 3);
    e.push_back(bm.zero_product_exp - 10);
  }
  return e;
}

// The double-precision block (arith/wide_block.hpp) run per output on the CPU, as a GPU kernel built on
// it runs each output: operands decoded once, every step by wide_step, and emu_step on the raw bits
// for a step that meets a NaN or Inf or an instruction it declines. Counts the steps each way, so that
// the test can see the double path was the one compared.
class WideBlockRun : public Backend {
 public:
  std::string name() const override { return "wide-block (test)"; }
  std::string description() const override { return "arith::wide_step per output, on the CPU"; }
  Declined declines(const ref::InstructionModel&, const GemmShape&, bool) const override { return std::nullopt; }
  RunInfo run(const GemmProblem& g) const override {
    const arith::OpParams p = params_from_profile(*g.model);
    const bool wide = arith::wide_declines(p) == arith::WideDecline::none;
    const GemmShape& s = g.shape;
    const size_t k = static_cast<size_t>(p.instr.k), steps = ref::gemm_steps(*g.model, s.K);
    const size_t S = scales_per_row(*g.model, s);
    // Decoded once, as a kernel decodes a tile; `special` marks the NaN and Inf operands.
    std::vector<arith::WideOperand> wa(a_count(s)), wb(b_count(s));
    std::vector<char> sa(a_count(s)), sb(b_count(s));
    for (size_t i = 0; wide && i < wa.size(); ++i) sa[i] = !arith::wide_operand(p.instr.a, g.A[i], p.instr.block, wa[i]);
    for (size_t i = 0; wide && i < wb.size(); ++i) sb[i] = !arith::wide_operand(p.instr.b, g.B[i], p.instr.block, wb[i]);
    const arith::WideOperand zero{0.0, 0, true};
    for (size_t t = 0; t < s.batch; ++t)
      for (size_t m = 0; m < s.M; ++m)
        for (size_t n = 0; n < s.N; ++n) {
          const size_t o = (t * s.M + m) * s.N + n, a0 = (t * s.M + m) * s.K, b0 = t * s.K * s.N + n;
          uint32_t acc = g.C[o];
          for (size_t st = 0, base = 0; st < steps; ++st, base += k) {
            const int valid = static_cast<int>(std::min(k, s.K - base));
            bool special = false;
            for (int i = 0; i < valid; ++i) special = special || sa[a0 + base + i] || sb[b0 + (base + i) * s.N];
            const auto load = [&](int i, const arith::WideOperand*& x, const arith::WideOperand*& y) {
              x = i < valid ? &wa[a0 + base + i] : &zero;
              y = i < valid ? &wb[b0 + (base + i) * s.N] : &zero;
            };
            const arith::FmtParams& fc = st > 0 ? p.instr.d : p.instr.c;
            uint32_t d = 0;
            if (wide && !special && arith::wide_step(p.instr, load, acc, fc, d)) {
              ++wide_steps;
            } else {
              const arith::StridedLoad raw{g.A + a0 + base, 1, g.B + b0 + base * s.N, s.N, valid,
                                           g.SA ? g.SA + (t * s.M + m) * S : nullptr,
                                           g.SB ? g.SB + t * S * s.N + n : nullptr, s.N, base, S, p.instr.scale};
              d = arith::emu_step(p, raw, acc, st > 0);
              ++other_steps;
            }
            acc = d;
            if (g.trace) g.trace[o * steps + st] = acc;
          }
          g.D[o] = acc;
        }
    return {name(), 0};
  }
  mutable size_t wide_steps = 0, other_steps = 0;
};

WideBlockRun& wide_block_run() {
  static WideBlockRun run;
  return run;
}

// The CPU runs of the kernels' arithmetic: the host backend, the double-precision block, and the cpu
// backend under each instruction set this CPU runs.
std::vector<const Backend*> kernel_runs() {
  std::vector<const Backend*> runs = {&host_backend(), &wide_block_run()};
  for (cpu::Isa isa : cpu::isas_built())
    if (cpu::cpu_runs(isa)) runs.push_back(pinned_cpu_backend(cpu::isa_name(isa)));
  return runs;
}

// Runs ref::gemm and every kernel run on the same GEMM; returns the number of outputs compared per run.
size_t expect_same_bits(const ref::InstructionModel& m, const Gemm& g, const std::string& what) {
  static const std::vector<const Backend*> runs = kernel_runs();
  const GemmShape& s = g.shape;
  const size_t steps = ref::gemm_steps(m, s.K), outs = c_count(s);
  std::vector<uint32_t> wantD(outs), wantT(outs * steps);
  const bool scaled = !g.SA.empty();
  const size_t S = scaled ? ref::scale_count(m.instr, s.K) : 0;
  for (size_t t = 0; t < s.batch; ++t)
    ref::gemm(m, s.M, s.N, s.K, g.A.data() + t * s.M * s.K, g.B.data() + t * s.K * s.N, g.C.data() + t * s.M * s.N,
              wantD.data() + t * s.M * s.N, wantT.data() + t * s.M * s.N * steps,
              scaled ? g.SA.data() + t * s.M * S : nullptr, scaled ? g.SB.data() + t * S * s.N : nullptr);
  for (const Backend* run : runs) {
    // Outputs start poisoned: one left unwritten cannot pass where the answer is +0.
    std::vector<uint32_t> D(outs, kPoison), T(outs * steps, kPoison);
    run->run({&m, s, g.A.data(), g.B.data(), g.C.data(), D.data(), T.data(), scaled ? g.SA.data() : nullptr,
                      scaled ? g.SB.data() : nullptr});
    for (size_t o = 0; o < outs; ++o) {
      const size_t t = o / (s.M * s.N), r = (o / s.N) % s.M, n = o % s.N;
      for (size_t st = 0; st < steps; ++st)
        if (T[o * steps + st] != wantT[o * steps + st]) {
          ADD_FAILURE() << run->name() << ", " << what << ": trace of (" << t << "," << r << "," << n << ") step " << st
                        << ": got " << hex(T[o * steps + st]) << ", reference " << hex(wantT[o * steps + st]);
          return 0;
        }
      if (D[o] != wantD[o]) {
        ADD_FAILURE() << run->name() << ", " << what << ": D(" << t << "," << r << "," << n << "): got " << hex(D[o])
                      << ", reference " << hex(wantD[o]);
        return 0;
      }
    }
  }
  return outs;
}

class CpuKernelsVsReference : public ::testing::TestWithParam<ref::Arch> {};

TEST_P(CpuKernelsVsReference, EveryInstructionFamilyAndShapeBitForBit) {
  const ref::Arch arch = GetParam();
  size_t compared = 0, models = 0;
  wide_block_run().wide_steps = wide_block_run().other_steps = 0;
  for (const ref::InstructionModel& m : ref::instructions_of(arch)) {
    // fp64 (an fma chain, two words per element, arith/fma_chain.hpp) is T3's and fma_chain_test's.
    if (ref::is_wide_n_variant(m.instr) || m.fma_chain) continue;
    ++models;
    const size_t k = static_cast<size_t>(m.instr.k);
    const std::vector<GemmShape> shapes = {
        {1, static_cast<size_t>(m.instr.m), static_cast<size_t>(m.instr.n), k},  // one instruction
        {2, 3, 2, 2 * k + 3},                                                    // K past a multiple, batch
        {1, 2, 5, k / 2 + 1},                                                    // K below one step
        {1, 1, 1, 1},
    };
    uint64_t seed = 1;
    for (gen::Family fam : gen::all_families())
      for (const GemmShape& s : shapes) {
        const std::string what = std::string(ref::arch_name(arch)) + " " + m.instr.name + " " +
                                 std::string(gen::family_name(fam)) + " batch " + std::to_string(s.batch) + " M " +
                                 std::to_string(s.M) + " N " + std::to_string(s.N) + " K " + std::to_string(s.K);
        compared += expect_same_bits(m, make_gemm(m.instr, fam, s, seed++), what);
        if (HasFailure()) return;
      }
    for (int e : interesting_product_exps(m)) {
      const std::string what = std::string(ref::arch_name(arch)) + " " + m.instr.name + " products near 2^" + std::to_string(e);
      for (const GemmShape& s : shapes) compared += expect_same_bits(m, make_scaled_gemm(m.instr, s, e, seed++), what);
      compared += expect_same_bits(m, make_scaled_gemm(m.instr, {1, 16, 16, 2 * k + 1}, e, seed++), what + ", larger");
    }
    for (const GemmShape& s : shapes)
      compared += expect_same_bits(m, make_signed_zero_gemm(m.instr, s, seed++),
                                   std::string(ref::arch_name(arch)) + " " + m.instr.name + " signed zeros");
    // Larger GEMMs of raw bits and of realistic values: M, N edges and several steps.
    for (gen::Family fam : {gen::Family::random_bits, gen::Family::realistic}) {
      const GemmShape s{1, 19, 9, 3 * k + 5};
      compared += expect_same_bits(m, make_gemm(m.instr, fam, s, seed++), std::string(ref::arch_name(arch)) + " " +
                                                                       m.instr.name + " large " +
                                                                       std::string(gen::family_name(fam)));
    }
    // Past the cpu backend's tiles (32 rows, 128 columns) and K chunks (128 elements), where its lanes
    // run: each boundary crossed on its own, so that the reference's share of the test stays small.
    if (!cpu::lane_plan_declines(params_from_profile(m)))
      for (const GemmShape& s : {GemmShape{1, 33, 9, 2 * k + 3}, GemmShape{1, 2, 130, 2 * k + 3},
                                 GemmShape{2, 2, 9, std::max<size_t>(k, 128) + k + 3}})
        compared += expect_same_bits(m, make_gemm(m.instr, gen::Family::realistic, s, seed++),
                                     std::string(ref::arch_name(arch)) + " " + m.instr.name + " past the cpu tiles");
    if (HasFailure()) return;
  }
  RecordProperty("outputs_compared", std::to_string(compared));
  EXPECT_GT(models, 0u);
  // The double-precision block took most steps (the others: NaN, Inf, lowered and block-scaled ones).
  const WideBlockRun& wide = wide_block_run();
  std::printf("%s: wide_step took %zu steps, emu_step %zu\n", std::string(ref::arch_name(arch)).c_str(),
              wide.wide_steps, wide.other_steps);
  EXPECT_GT(wide.wide_steps, wide.other_steps);
  std::printf("%s: %zu instructions, %zu outputs (and their traces) bit for bit\n",
              std::string(ref::arch_name(arch)).c_str(), models, compared);
}

INSTANTIATE_TEST_SUITE_P(AllArchitectures, CpuKernelsVsReference, ::testing::ValuesIn(ref::all_archs()),
                         [](const auto& info) { return std::string(ref::arch_name(info.param)); });

}  // namespace
}  // namespace mmaemu::kernels
