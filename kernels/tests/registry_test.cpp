// The registry and the fallback ladder: order, names, reasons, and that every rung gives the
// reference's bits on a small GEMM it accepts.
#include <gtest/gtest.h>

#include <algorithm>

#include <vector>

#include "kernels/backend.hpp"
#include "kernels/backend_names.hpp"
#include "kernels/registry.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {
namespace {

const ref::InstructionModel& hopper_fp16() { return ref::lookup(ref::Arch::sm90, "mma.m16n8k16.f32.f16.f16.f32"); }

TEST(Registry, LadderEndsWithHostThenReference) {
  const auto& l = backends();
  ASSERT_GE(l.size(), 2u);
  EXPECT_EQ(l[l.size() - 1]->name(), "reference");
  EXPECT_EQ(l[l.size() - 2]->name(), "host");
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
  EXPECT_NE(find_backend("simt"), nullptr);
#else
  EXPECT_EQ(find_backend("simt"), nullptr);
#endif
  for (const Backend* b : l) {
    EXPECT_EQ(find_backend(b->name()), b);
    EXPECT_FALSE(b->description().empty()) << b->name();
  }
  EXPECT_EQ(find_backend("nonesuch"), nullptr);
}

// The CUDA-core backends' old names (v1, v4, v5) still find them: each alias names a backend of the
// list, the canonical name of an alias is that backend's, and a current name maps to itself.
TEST(Registry, OldNamesFindTheRenamedBackends) {
  for (const BackendAlias& a : kBackendAliases) {
    EXPECT_EQ(canonical_backend_name(a.old_name), a.name);
    EXPECT_EQ(find_backend(std::string(a.old_name)), find_backend(std::string(a.name))) << a.old_name;
    const auto listed = std::find_if(std::begin(kBackendNames), std::end(kBackendNames),
                                     [&](const BackendName& n) { return n.name == a.name; });
    EXPECT_NE(listed, std::end(kBackendNames)) << a.name;
  }
  EXPECT_EQ(canonical_backend_name("tiled"), "tiled");
  EXPECT_EQ(canonical_backend_name("nonesuch"), "nonesuch");
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
  ASSERT_NE(find_backend("v1"), nullptr);
  EXPECT_EQ(find_backend("v1")->name(), "simt");
#endif
  const LadderChoice c = choose_backend("v1", hopper_fp16(), GemmShape{1, 16, 8, 16}, false);
  ASSERT_EQ(c.declined.size() + (c.chosen ? 1 : 0), 1u);
  EXPECT_EQ(c.chosen ? c.chosen->name() : c.declined[0].first, "simt") << "a choice reports the backend by its new name";
}

TEST(Registry, AutoTakesTheFirstThatAcceptsAndSaysWhyOthersDeclined) {
  const GemmShape s{1, 16, 8, 16};
  const LadderChoice c = choose_backend("auto", hopper_fp16(), s, true);
  ASSERT_NE(c.chosen, nullptr);
  // Every backend before the chosen one declined, with a reason, in ladder order.
  const auto& l = backends();
  size_t i = 0;
  for (; l[i] != c.chosen; ++i) {
    ASSERT_LT(i, c.declined.size());
    EXPECT_EQ(c.declined[i].first, l[i]->name());
    EXPECT_FALSE(c.declined[i].second.detail.empty());
  }
  EXPECT_EQ(i, c.declined.size());
  for (const auto& [name, why] : c.declined)
    if (name == "simt") {
      EXPECT_EQ(why.code, DeclineCode::no_gpu) << why.detail;
    }
}

TEST(Registry, NamedBackendOrReason) {
  const GemmShape s{1, 16, 8, 16};
  const LadderChoice host = choose_backend("host", hopper_fp16(), s, false);
  ASSERT_NE(host.chosen, nullptr);
  EXPECT_EQ(host.chosen->name(), "host");
  EXPECT_TRUE(host.declined.empty());

  const LadderChoice unknown = choose_backend("v9", hopper_fp16(), s, false);
  EXPECT_EQ(unknown.chosen, nullptr);
  ASSERT_EQ(unknown.declined.size(), 1u);
  EXPECT_EQ(unknown.declined[0].first, "v9");
  EXPECT_EQ(unknown.declined[0].second.code, DeclineCode::unknown_backend);
  EXPECT_NE(unknown.declined[0].second.detail.find("reference"), std::string::npos);  // lists what exists
}

// The ladder is the one list of names (backend_names.hpp) restricted to what this build holds, in its
// order: every backend of the build is named there, and the CPU ones are always built.
TEST(Registry, TheLadderFollowsTheOneListOfNames) {
  std::vector<std::string> listed;
  for (const BackendName& n : kBackendNames) listed.emplace_back(n.name);
  size_t at = 0;
  for (const Backend* b : backends()) {
    const auto it = std::find(listed.begin() + static_cast<std::ptrdiff_t>(at), listed.end(), b->name());
    ASSERT_NE(it, listed.end()) << b->name() << " is not in kBackendNames, or out of its order";
    at = static_cast<size_t>(it - listed.begin()) + 1;
  }
  for (const std::string& cpu : backend_names_in({BackendPlace::cpu})) EXPECT_NE(find_backend(cpu), nullptr) << cpu;
  EXPECT_EQ(gpu_backend_names().size() + backend_names_in({BackendPlace::cpu}).size(), listed.size());
}

TEST(Registry, ABackendThatDeclinesIsNeverChosen) {
  // An exact model (96 fraction bits) needs sums wider than the kernels' 64-bit adders: "host" (and
  // every GPU rung) declines it, so that `auto` must fall through to the reference, and naming "host"
  // must give its reason and no backend, on every build (with or without CUDA).
  ref::InstructionModel exact = hopper_fp16();
  exact.block.frac_bits = 96;
  const GemmShape s{1, 16, 8, 16};
  ASSERT_TRUE(host_backend().declines(exact, s, false).has_value());
  EXPECT_EQ(host_backend().declines(exact, s, false)->code, DeclineCode::block_too_wide);

  const LadderChoice automatic = choose_backend("auto", exact, s, false);
  ASSERT_NE(automatic.chosen, nullptr);
  EXPECT_EQ(automatic.chosen, &reference_backend());
  ASSERT_FALSE(automatic.declined.empty());
  EXPECT_EQ(automatic.declined.back().first, "host");

  const LadderChoice named = choose_backend("host", exact, s, false);
  EXPECT_EQ(named.chosen, nullptr);
  ASSERT_EQ(named.declined.size(), 1u);
  EXPECT_EQ(named.declined[0].first, "host");
  EXPECT_EQ(named.declined[0].second.code, DeclineCode::block_too_wide) << named.declined[0].second.detail;
}

TEST(Registry, EveryAcceptingBackendGivesTheReferenceBits) {
  const ref::InstructionModel& m = hopper_fp16();
  const GemmShape s{2, 3, 5, 37};
  std::vector<uint32_t> A(a_count(s)), B(b_count(s)), C(c_count(s));
  uint32_t x = 12345;
  auto next = [&] { return x = x * 1103515245u + 12345u; };
  for (auto& v : A) v = (next() >> 8) & 0x7BFF;  // finite fp16
  for (auto& v : B) v = (next() >> 8) & 0xFBFF;
  for (auto& v : C) v = next() & 0xBF7FFFFF;   // finite fp32
  const size_t steps = ref::gemm_steps(m, s.K);
  // The expectation straight from the reference model, batch by batch (not through a backend).
  std::vector<uint32_t> want(c_count(s)), want_trace(c_count(s) * steps);
  for (size_t t = 0; t < s.batch; ++t)
    ref::gemm(m, s.M, s.N, s.K, A.data() + t * s.M * s.K, B.data() + t * s.K * s.N, C.data() + t * s.M * s.N,
              want.data() + t * s.M * s.N, want_trace.data() + t * s.M * s.N * steps);
  std::vector<std::string> compared;
  for (const Backend* b : backends()) {
    if (b->declines(m, s, true)) continue;
    // Poisoned outputs: one left unwritten cannot pass where the answer happens to be +0.
    std::vector<uint32_t> D(c_count(s), kPoison), T(c_count(s) * steps, kPoison);
    const RunInfo info = b->run({&m, s, A.data(), B.data(), C.data(), D.data(), T.data()});
    EXPECT_EQ(info.backend, b->name());
    EXPECT_EQ(D, want) << b->name();
    EXPECT_EQ(T, want_trace) << b->name();
    compared.push_back(b->name());
  }
  // The CPU backends run everywhere: the registry's wrapper of the reference and the host build.
  for (const char* name : {"reference", "host"})
    EXPECT_NE(std::find(compared.begin(), compared.end(), name), compared.end()) << name << " was not compared";
}

}  // namespace
}  // namespace mmaemu::kernels
