#include "harness/probe/experiments.hpp"

#include <algorithm>
#include <cstdio>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::probe {
namespace {

std::string power(int64_t m, int e) {
  return std::string(m < 0 ? "-" : "+") + (std::llabs(m) == 1 ? "" : std::to_string(std::llabs(m)) + "*") + "2^" +
         std::to_string(e);
}

// A case under construction: zero products everywhere, +0 for c.
class CaseBuilder {
 public:
  explicit CaseBuilder(const ValueMaker& v) : v_(v) {
    const ref::Instruction& in = v.instruction();
    c_.a.assign(in.k, ref::zero_bits(in.a, false));
    c_.b.assign(in.k, ref::zero_bits(in.b, false));
    c_.c = ref::zero_bits(in.c, false);
  }
  // Product m * 2^e at k; false when the formats cannot make it (the case is then dropped).
  CaseBuilder& at(int k, int64_t m, int e) {
    const auto p = v_.product(m, e);
    if (!p) ok_ = false;
    else {
      c_.a[k] = p->first;
      c_.b[k] = p->second;
    }
    note("p" + std::to_string(k) + "=" + power(m, e));
    return *this;
  }
  CaseBuilder& raw(int k, uint32_t a, uint32_t b, const std::string& what) {
    c_.a[k] = a;
    c_.b[k] = b;
    note("p" + std::to_string(k) + "=" + what);
    return *this;
  }
  CaseBuilder& c(int64_t m, int e, bool allow_subnormal = false) {
    const auto x = v_.c_value(m, e, allow_subnormal);
    if (!x) ok_ = false;
    else c_.c = *x;
    note("c=" + power(m, e));
    return *this;
  }
  CaseBuilder& c_raw(uint32_t bits, const std::string& what) {
    c_.c = bits;
    note("c=" + what);
    return *this;
  }
  void into(Experiment& e) {
    if (ok_) e.cases.push_back(c_);
  }

 private:
  void note(const std::string& s) { c_.what += (c_.what.empty() ? "" : " ") + s; }
  const ValueMaker& v_;
  ProbeCase c_;
  bool ok_ = true;
};

}  // namespace

Experiment structure_cases(const ValueMaker& v) {
  Experiment e{"structure", "products per block, the order blocks chain in, where c enters, lowering", {}};
  const int K = v.instruction().k, hi = v.hi(), lo = v.lo();
  for (int i = 0; i < K; ++i)
    for (int l = 0; l < K; ++l)
      if (l != i) CaseBuilder(v).c(1, hi).at(i, -1, hi).at(l, 1, lo).into(e);
  for (int i = 0; i < K; ++i)
    for (int gap : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24}) {
      const int j = i + gap;
      if (j >= K) continue;
      for (int l = 0; l < K; ++l)
        if (l != i && l != j) CaseBuilder(v).at(i, 1, hi).at(j, -1, hi).at(l, 1, lo).into(e);
    }
  return e;
}

Experiment fraction_cases(const ValueMaker& v, int block_k) {
  Experiment e{"fraction", "fraction bits kept (F) and how aligned terms are truncated", {}};
  const int K = v.instruction().k, top = v.hi(), S = v.spread(), odd = v.max_odd();
  const int in_block = std::min(block_k, K);
  const bool use_c = in_block < 4;  // too short a block for two cancelling products and two more terms
  const auto big_pair = [&](CaseBuilder& b) -> int {  // the next free k
    if (use_c) {
      b.c(1, top).at(0, -1, top);
      return 1;
    }
    b.at(0, 1, top).at(1, -1, top);
    return 2;
  };
  for (int d = 1; d <= S; ++d)
    for (int m = -odd; m <= odd; m += 2) {
      CaseBuilder b(v);
      const int k = big_pair(b);
      if (k < in_block) b.at(k, m, top - d).into(e);
    }
  // Two terms a few binades apart: truncation of a sum of mixed signs (toward zero against floor).
  for (int d = 1; d <= S - 3; ++d)
    for (int s : {1, 2, 3})
      for (int m1 : {1, -1, 3, -3})
        for (int m2 : {1, -1, 3, -3}) {
          if (std::abs(m1) > odd || std::abs(m2) > odd) continue;
          CaseBuilder b(v);
          const int k = big_pair(b);
          if (k + 1 < in_block) b.at(k, m1, top - d).at(k + 1, m2, top - d - s).into(e);
        }
  return e;
}

Experiment result_cases(const ValueMaker& v, int block_k, int frac_bits) {
  Experiment e{"result", "the format a block rounds to, its rounding, overflow", {}};
  const ref::Instruction& in = v.instruction();
  const int K = in.k, in_block = std::min(block_k, K), odd = v.max_odd();
  const int top = v.hi() - 2;
  // In the last block: an earlier block's result is truncated again as the next block's addend, which
  // hides how it was rounded; the last block's rounding reaches D.
  const int z = K - in_block;
  const int deepest = std::min({frac_bits, v.spread() - 2, 30});
  for (int d = 1; d <= deepest; ++d)
    for (int m = -odd; m <= odd; m += 2) {
      if (in_block >= 2) CaseBuilder(v).at(z, 1, top).at(z + 1, m, top - d).into(e);
      if (in_block >= 2) CaseBuilder(v).at(z, -1, top).at(z + 1, m, top - d).into(e);
      // Exactly half an ulp and just above it, for each width a result format might have.
      if (in_block >= 3 && d + 1 <= deepest) CaseBuilder(v).at(z, 1, top).at(z + 1, 1, top - d).at(z + 2, m, top - d - 1).into(e);
      // The same through c (one more term in the first block).
      CaseBuilder(v).c(1, top).at(0, m, top - d).into(e);
    }
  // Carries: n equal terms and one at the last kept bit, so that the sum moves up a binade or more and
  // needs F + 1 ... F + 3 bits: a narrower block result (e8m13, fp16) must round it, fp32 need not.
  const int carry_top = v.hi() - 4;
  for (int n = 2; n <= std::min(in_block - 1, 7); ++n)
    for (int d = std::max(1, std::min(frac_bits, v.spread() - 4) - 4); d <= std::min(frac_bits, v.spread() - 4); ++d)
      for (int m = -odd; m <= odd; m += 2) {
        CaseBuilder b(v);
        for (int k = 0; k < n; ++k) b.at(z + k, 1, carry_top);
        b.at(z + n, m, carry_top - d).into(e);
      }
  // Past the largest finite value of D (and of the formats between): every product at its largest.
  uint32_t amax = 0, bmax = 0;
  for (int x = 300; x > -300 && !amax; --x)
    if (auto a = exact_bits(in.a, false, static_cast<uint64_t>(odd), x)) amax = *a;
  for (int x = 300; x > -300 && !bmax; --x)
    if (auto b = exact_bits(in.b, false, 1, x)) bmax = *b;
  for (int n = 1; n <= in_block; n *= 2)
    for (bool neg : {false, true}) {
      CaseBuilder b(v);
      for (int k = z; k < z + n; ++k) b.raw(k, neg ? (amax | (1u << (ref::spec(in.a).storage_bits - 1))) : amax, bmax, neg ? "-max" : "+max");
      b.into(e);
    }
  return e;
}

Experiment zero_exp_cases(const ValueMaker& v) {
  Experiment e{"zero-exponent", "the exponent a zero product takes in the block's maximum", {}};
  const ref::Instruction& in = v.instruction();
  const int K = in.k;
  const auto all_ones = [](ref::FormatId f) { return (uint64_t{2} << ref::spec(f).man_bits) - 1; };
  // A tiny product with A's significand all ones, alone among zero products, at every exponent.
  for (int x = -300; x <= 0; ++x)
    for (int yb : {0, -20, -60, -120}) {
      const auto a = exact_bits(in.a, false, all_ones(in.a), x, true);
      const auto b = exact_bits(in.b, false, 1, yb, true);
      if (!a || !b) continue;
      CaseBuilder(v).raw(K - 1, *a, *b, "ones*2^" + std::to_string(x) + "*2^" + std::to_string(yb)).into(e);
    }
  // A tiny c with every significand bit set (subnormals included), all products zero.
  for (int x = -300; x <= 0; ++x) {
    const auto c = exact_bits(in.c, false, all_ones(in.c), x, true);
    if (c) CaseBuilder(v).c_raw(*c, "ones*2^" + std::to_string(x)).into(e);
    for (uint64_t m : {uint64_t{1}, uint64_t{3}, uint64_t{5}})
      if (auto s = exact_bits(in.c, false, m, x, true)) CaseBuilder(v).c_raw(*s, std::to_string(m) + "*2^" + std::to_string(x)).into(e);
  }
  return e;
}

Experiment tf32_cases(const ValueMaker& v) {
  Experiment e{"tf32-input", "how fp32 patterns are read as tf32 (the low 13 bits)", {}};
  for (uint32_t base : {0x3F800000u, 0x3F802000u, 0xBF800000u, 0xBF802000u, 0x3FFFE000u, 0x40490000u})
    for (uint32_t low : {0x0001u, 0x0FFFu, 0x1000u, 0x1001u, 0x1FFFu}) {
      const uint32_t one = 0x3F800000u;
      char pattern[24];
      std::snprintf(pattern, sizeof pattern, "fp32 0x%08x", base | low);
      CaseBuilder(v).raw(0, base | low, one, pattern).into(e);
      CaseBuilder(v).raw(0, one, base | low, std::string(pattern) + " (B)").into(e);
    }
  return e;
}

Experiment specials_cases(const ValueMaker& v) {
  Experiment e{"specials", "NaN, Inf, -0 and subnormal rules (checked against the model's)", {}};
  const ref::Instruction& in = v.instruction();
  const ref::FormatId fa = in.a, fb = in.b, fc = in.c;
  const uint32_t one_b = *exact_bits(fb, false, 1, 0);
  const uint32_t nan_a = ref::canonical_nan(fa), nan_c = ref::canonical_nan(fc);
  const uint32_t inf_a = ref::infinity_bits(fa, false), ninf_a = ref::infinity_bits(fa, true);
  const uint32_t inf_c = ref::infinity_bits(fc, false), ninf_c = ref::infinity_bits(fc, true);
  const uint32_t nzero_a = ref::zero_bits(fa, true), nzero_c = ref::zero_bits(fc, true);
  const uint32_t sub_a = ref::round_to_format(fa, false, 1, ref::spec(fa).emin() - ref::spec(fa).man_bits,
                                              ref::Rounding::toward_zero);
  const uint32_t sub_c = ref::round_to_format(fc, false, 3, ref::spec(fc).emin() - ref::spec(fc).man_bits,
                                              ref::Rounding::toward_zero);
  CaseBuilder(v).raw(0, nan_a, one_b, "NaN*1").into(e);
  CaseBuilder(v).raw(0, nan_a ^ 1u, one_b, "NaN(payload)*1").into(e);
  CaseBuilder(v).c_raw(nan_c, "NaN").into(e);
  CaseBuilder(v).raw(0, inf_a, one_b, "+Inf*1").into(e);
  CaseBuilder(v).raw(0, inf_a, ref::zero_bits(fb, false), "Inf*0").into(e);
  CaseBuilder(v).raw(0, inf_a, one_b, "+Inf").raw(1, ninf_a, one_b, "-Inf").into(e);
  CaseBuilder(v).raw(0, inf_a, one_b, "+Inf").c_raw(ninf_c, "-Inf").into(e);
  CaseBuilder(v).c_raw(inf_c, "+Inf").into(e);
  CaseBuilder(v).raw(0, nzero_a, one_b, "-0*1").c_raw(nzero_c, "-0").into(e);
  CaseBuilder(v).raw(0, nzero_a, one_b, "-0*1").into(e);
  CaseBuilder(v).c_raw(nzero_c, "-0").into(e);
  {
    CaseBuilder b(v);
    for (int k = 0; k < in.k; ++k) b.raw(k, nzero_a, one_b, "-0*1");
    b.c_raw(nzero_c, "-0").into(e);
  }
  // The sign of a zero result: every product and c zero, with each combination of signs.
  const uint32_t pzero_a = ref::zero_bits(fa, false), nzero_b = ref::zero_bits(fb, true), pzero_c = ref::zero_bits(fc, false);
  const uint32_t none_b = *exact_bits(fb, true, 1, 0);
  const auto all_k = [&](uint32_t a, uint32_t b, const std::string& what, uint32_t c, const std::string& cwhat) {
    CaseBuilder x(v);
    for (int k = 0; k < in.k; ++k) x.raw(k, a, b, what);
    x.c_raw(c, cwhat).into(e);
  };
  all_k(*exact_bits(fa, false, 1, 0), nzero_b, "1*-0", nzero_c, "-0");
  all_k(nzero_a, none_b, "-0*-1", nzero_c, "-0");
  all_k(nzero_a, one_b, "-0*1", pzero_c, "+0");
  all_k(pzero_a, one_b, "+0*1", nzero_c, "-0");
  CaseBuilder(v).at(0, 1, 0).at(1, -1, 0).c_raw(nzero_c, "-0").into(e);    // exact cancellation, c = -0
  CaseBuilder(v).at(0, -1, 0).at(1, 1, 0).c_raw(nzero_c, "-0").into(e);
  CaseBuilder(v).at(0, 1, 0).at(1, -1, 0).into(e);                       // exact zero sum: its sign
  CaseBuilder(v).at(0, -1, 0).c(1, 0).into(e);
  CaseBuilder(v).raw(0, sub_a, one_b, "subnormal*1").into(e);           // subnormal operand
  CaseBuilder(v).raw(0, sub_a, one_b, "subnormal*1").raw(1, sub_a, one_b, "subnormal*1").into(e);
  CaseBuilder(v).c_raw(sub_c, "subnormal").into(e);                     // subnormal c
  CaseBuilder(v).raw(0, sub_a, one_b, "subnormal*1").c_raw(sub_c, "subnormal").into(e);
  return e;
}

}  // namespace mmaemu::probe
