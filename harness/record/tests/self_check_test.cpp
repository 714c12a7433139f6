#include "harness/record/self_check.hpp"

#include <gtest/gtest.h>

#include "generators/format_bits.hpp"

namespace mmaemu::record {
namespace {

// What correct hardware returns for the small_int tiles (other tiles: zeros, unchecked).
void fill_exact_small_int(InstructionRecording& r) {
  const auto& in = r.instr;
  const gen::FormatBits fa(in.a), fb(in.b), fc(in.c), fd(in.d);
  r.d.assign(r.outputs(), 0);
  for (const auto& f : r.families) {
    if (f.family != gen::Family::small_int) continue;
    for (int t = f.first; t < f.last; ++t)
      for (int m = 0; m < in.m; ++m)
        for (int n = 0; n < in.n; ++n) {
          double s = fc.to_double(r.c[(t * in.m + m) * in.n + n]);
          for (int k = 0; k < in.k; ++k)
            s += fa.to_double(r.a[(t * in.m + m) * in.k + k]) * fb.to_double(r.b[(t * in.k + k) * in.n + n]);
          r.d[(t * in.m + m) * in.n + n] = *fd.encode_exact(s);
        }
  }
}

TEST(SelfCheck, ExactTilesPassWhenDIsExactAndFailWhenOutputsMoved) {
  for (const char* name : {"mma.m16n8k16.f16.f16.f16.f16", "wgmma.m64n8k8.f32.tf32.tf32"}) {
    InstructionRecording r = plan_recording(*ref::parse_instruction(name), 3, 2);
    fill_exact_small_int(r);
    const CheckResult ok = check_exact_tiles(r);
    EXPECT_TRUE(ok.ok()) << (ok.first.empty() ? "" : ok.first[0]);
    EXPECT_EQ(ok.checked, size_t(2 * r.instr.m * r.instr.n));
    // A transposed quad of outputs, as a wrong accumulator layout would give.
    const int t = r.families[static_cast<size_t>(gen::Family::small_int)].first;
    const size_t base = static_cast<size_t>(t) * r.instr.m * r.instr.n;
    std::swap(r.d[base + 1], r.d[base + r.instr.n]);
    std::swap(r.d[base + 2], r.d[base + 3]);
    const CheckResult bad = check_exact_tiles(r);
    EXPECT_FALSE(bad.ok());
    ASSERT_FALSE(bad.first.empty());
    EXPECT_NE(bad.first[0].find(std::string(name) + " tile " + std::to_string(t)), std::string::npos) << bad.first[0];
  }
}

TEST(SelfCheck, RunsMustAgreeAndWriteEveryOutput) {
  InstructionRecording r = plan_recording(*ref::parse_instruction("mma.m16n8k16.f32.f16.f16.f32"), 1, 1);
  const uint64_t p1 = poison_pattern(0xA5, 4), p2 = poison_pattern(0x5A, 4);
  EXPECT_EQ(p1, 0xA5A5A5A5u);
  EXPECT_EQ(poison_pattern(0x5A, 2), 0x5A5Au);
  std::vector<uint32_t> d1(r.outputs(), 0x3F800000u), d2 = d1;
  EXPECT_TRUE(check_runs_agree(r, d1, p1, d2, p2).ok());
  d1[5] = p1, d2[5] = p2;  // never written
  d2[7] = 0x3F800001u;     // differs
  const CheckResult res = check_runs_agree(r, d1, p1, d2, p2);
  EXPECT_EQ(res.failures, 2u);
  ASSERT_EQ(res.first.size(), 2u);
  EXPECT_NE(res.first[0].find("never written"), std::string::npos);
  EXPECT_NE(res.first[1].find("runs differ"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu::record
