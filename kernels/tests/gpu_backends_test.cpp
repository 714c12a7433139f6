// Backends "tiled" (tiled CUDA cores), "tiled-fp64" (the same tiles on the fp64 pipe) and "tc" (the GPU's own tensor cores) against the reference, bit
// for bit, on the GPU: every architecture profile, every instruction (wgmma at n8 and the widest N),
// every input family, GEMM shapes with M, N and K edges, batches, and the accumulator after every
// step (the trace). Skipped, with the reason, where no CUDA device exists. tc runs only the targets
// equal to the GPU's architecture; for the others the test checks that it declines and says why.
//
// Throughput at 4096^3 (a measurement, not a test; run with --gtest_also_run_disabled_tests):
//   GpuBackendThroughput.DISABLED_Gemm4096 prints TMAC/s per backend and format and checks a sample of
//   outputs against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "generators/families.hpp"
#include "generators/scales.hpp"
#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/registry.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {
namespace {

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

#define SKIP_WITHOUT_GPU()                                                   \
  do {                                                                       \
    if (auto why = cuda_device_declines()) GTEST_SKIP() << why->detail;           \
  } while (0)

struct Problem {
  GemmShape shape;
  std::vector<uint32_t> A, B, C;
  std::vector<uint32_t> SA, SB;  // block-scaled instructions: [batch][M][S], [batch][S][N]
  size_t S = 0;
  const uint32_t* sa(size_t b) const { return S ? SA.data() + b * shape.M * S : nullptr; }
  const uint32_t* sb(size_t b) const { return S ? SB.data() + b * S * shape.N : nullptr; }
};

// One GEMM's inputs from a family generator (each batch entry its own seed).
Problem make_problem(const ref::InstructionModel& m, gen::Family family, GemmShape s, uint64_t seed) {
  Problem p{s, std::vector<uint32_t>(a_count(s)), std::vector<uint32_t>(b_count(s)), std::vector<uint32_t>(c_count(s)),
            {}, {}, 0};
  ref::Instruction shape_of = m.instr;
  shape_of.m = static_cast<int>(s.M);
  shape_of.n = static_cast<int>(s.N);
  shape_of.k = static_cast<int>(s.K);
  p.S = m.instr.scale ? ref::scale_count(m.instr, s.K) : 0;
  p.SA.resize(s.batch * s.M * p.S);
  p.SB.resize(s.batch * p.S * s.N);
  for (size_t b = 0; b < s.batch; ++b) {
    gen::generate_tile(family, shape_of, seed * 1000003u + b, p.A.data() + b * s.M * s.K,
                       p.B.data() + b * s.K * s.N, p.C.data() + b * s.M * s.N);
    if (p.S) gen::generate_scales(family, m.instr, seed * 1000003u + b, s.M, p.S, s.N, p.SA.data() + b * s.M * p.S,
                                  p.SB.data() + b * p.S * s.N);
  }
  return p;
}

struct Expected {
  std::vector<uint32_t> D, trace;
};

Expected reference_of(const ref::InstructionModel& m, const Problem& p) {
  const GemmShape& s = p.shape;
  const size_t steps = ref::gemm_steps(m, s.K);
  Expected e{std::vector<uint32_t>(c_count(s)), std::vector<uint32_t>(c_count(s) * steps)};
  // Rows of A, C and D are independent GEMMs: unscaled problems split them over the host's cores, so
  // that the large shapes (tc's pipelined tiles) cost seconds, not minutes, of reference time.
  const size_t workers = m.instr.scale ? 1 : std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), s.M / 16));
  const size_t rows_per = (s.M + workers - 1) / workers;
  for (size_t b = 0; b < s.batch; ++b) {
    auto rows = [&](size_t first, size_t count) {
      ref::gemm(m, count, s.N, s.K, p.A.data() + (b * s.M + first) * s.K, p.B.data() + b * s.K * s.N,
                p.C.data() + (b * s.M + first) * s.N, e.D.data() + (b * s.M + first) * s.N,
                e.trace.data() + (b * s.M + first) * s.N * steps, p.sa(b), p.sb(b));
    };
    std::vector<std::thread> pool;
    for (size_t first = 0; first < s.M; first += rows_per) pool.emplace_back(rows, first, std::min(rows_per, s.M - first));
    for (auto& t : pool) t.join();
  }
  return e;
}

// Runs `backend` and compares D and the trace with the reference; returns the number of outputs
// compared (0 when the backend declined: *declined gets the reason).
size_t compare(const Backend& backend, const ref::InstructionModel& m, gen::Family family, GemmShape s,
               uint64_t seed, bool with_trace, Declined* declined) {
  if (auto why = backend.declines(m, s, with_trace)) {
    *declined = std::move(why);
    return 0;
  }
  const Problem p = make_problem(m, family, s, seed);
  const Expected e = reference_of(m, p);
  std::vector<uint32_t> D(c_count(s), kPoison), trace(with_trace ? e.trace.size() : 0, kPoison);
  const GemmProblem gp{&m, s, p.A.data(), p.B.data(), p.C.data(), D.data(), with_trace ? trace.data() : nullptr,
                       p.sa(0), p.sb(0)};
  backend.run(gp);
  const size_t steps = ref::gemm_steps(m, s.K);
  const std::string where = backend.name() + " " + std::string(ref::arch_name(m.arch)) + " " + m.instr.name + " " +
                            std::string(gen::family_name(family)) + " " + std::to_string(s.batch) + "x" +
                            std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
  for (size_t i = 0; i < D.size(); ++i) {
    EXPECT_EQ(hex(D[i]), hex(e.D[i])) << where << " output " << i;
    if (D[i] != e.D[i]) return 0;  // one mismatch per case is enough to read
  }
  if (with_trace)
    for (size_t i = 0; i < trace.size(); ++i) {
      EXPECT_EQ(hex(trace[i]), hex(e.trace[i])) << where << " trace output " << i / steps << " step " << i % steps;
      if (trace[i] != e.trace[i]) return 0;
    }
  return D.size();
}

// Every instruction of every profile, wgmma at n8 and at its widest N only (the others share its model).
std::vector<const ref::InstructionModel*> instructions() {
  std::vector<const ref::InstructionModel*> v;
  for (ref::Arch a : ref::all_archs())
    for (const auto& m : ref::instructions_of(a))
      if (!ref::is_wide_n_variant(m.instr) || m.instr.n == 256) v.push_back(&m);
  return v;
}

const Backend& backend_named(const std::string& name) {
  const Backend* b = find_backend(name);
  if (!b) throw std::runtime_error("backend " + name + " is not in this build");
  return *b;
}

// Empty when `why` is a decline this test allows, else the failure to report. tiled runs everything but
// the K = 64 block-scaled kinds (two of its K stages), the m8n8k4 whose C is not in D's format and fp64
// mma (tiled and tc: an fma chain, run by simt and host); tc runs the GPU's own target only (every other
// profile is a foreign target), and a wide wgmma without a trace only (its pipelined GEMM). Anything
// else, on any GPU, is a failure. Judged by code: the detail is for people.
std::string unexpected_decline(const Backend& backend, const ref::InstructionModel& m, const Decline& why) {
  const std::string what = backend.name() + " declined " + std::string(ref::arch_name(m.arch)) + " " + m.instr.name +
                           ": " + std::string(why.code_name()) + ": " + why.detail;
  using C = DeclineCode;
  if (m.fma_chain && why.code == C::fp64_fma_chain) return "";  // simt and host run it
  if (backend.name() == "tiled") {
    if (m.instr.k > 32 && why.code == C::k_stage) return "";
    return m.instr.c != m.instr.d && why.code == C::mixed_accumulator ? "" : what;
  }
  if (backend.name() == "tiled-fp64") {  // tiled's declines, and the lowered and block-scaled instructions (tiled runs them)
    if (m.instr.k > 32 && why.code == C::k_stage) return "";
    if (m.lowering && why.code == C::lowered_instruction) return "";
    if (m.instr.scale && why.code == C::block_scaled) return "";
    return m.instr.c != m.instr.d && why.code == C::mixed_accumulator ? "" : what;
  }
  if (backend.name() != "tc") return what;
  const bool own_target = std::string(ref::arch_name(m.arch)) == "sm" + std::to_string(cuda_device_sm());
  if (!own_target) return why.code == C::foreign_target || why.code == C::no_tensor_core_code ? "" : what;
  const bool wide_wgmma = ref::is_wide_n_variant(m.instr);
  return wide_wgmma && why.code == C::no_trace ? "" : what;
}


// ---- every profile x instruction x family, small GEMMs with edges and a trace -----------------------
class GpuBackendEveryInstruction : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuBackendEveryInstruction, MatchesTheReferenceBitForBit) {
  SKIP_WITHOUT_GPU();
  const Backend& backend = backend_named(GetParam());
  size_t outputs = 0, ran = 0, declined_count = 0;
  std::vector<std::string> mismatched;  // instructions with a mismatch (the first one of each is reported)
  for (const ref::InstructionModel* m : instructions()) {
    const int failures_before = ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
    for (gen::Family f : gen::all_families()) {
      // M and N past a 64-tile edge and below it; K past a multiple of every instruction K.
      for (GemmShape s : {GemmShape{1, 17, 9, 35}, GemmShape{2, 70, 67, 2 * static_cast<size_t>(m->instr.k) + 3}}) {
        Declined why;
        const size_t n = compare(backend, *m, f, s, 7 + static_cast<uint64_t>(f), true, &why);
        outputs += n;
        ran += n > 0;
        if (why) {
          ++declined_count;
          if (const std::string bad = unexpected_decline(backend, *m, *why); !bad.empty()) ADD_FAILURE() << bad;
        }
        if (::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count() != failures_before)
          break;
      }
      if (::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count() != failures_before) {
        mismatched.push_back(std::string(ref::arch_name(m->arch)) + " " + m->instr.name + " (" +
                             std::string(gen::family_name(f)) + ")");
        break;  // next instruction
      }
    }
  }
  std::printf("[ %s ] %zu cases, %zu outputs (and traces) equal to the reference; %zu cases declined\n",
              backend.name().c_str(), ran, outputs, declined_count);
  for (const std::string& m : mismatched) std::printf("[ %s ] MISMATCH %s\n", backend.name().c_str(), m.c_str());
  EXPECT_GT(ran, 0u) << backend.name() << " ran nothing on this GPU";
}

// A backend's name as a test name ("tiled-fp64" -> "tiled_fp64": gtest takes letters, digits, '_').
std::string test_name_of(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuBackendEveryInstruction, ::testing::Values("tiled", "tiled-fp64", "tc"),
                         [](const auto& info) { return test_name_of(info.param); });

// ---- shapes: tiny, exact tiles, edges in every dimension, K = 0, batches, one and few rows ----------
// Hopper instructions only: tc runs only the GPU's own target, so on a GPU other than an sm_90 its
// half skips with the reason; any other decline is a failure, and every case must compare outputs.
class GpuBackendShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuBackendShapes, EdgesAndBatchesMatchTheReference) {
  SKIP_WITHOUT_GPU();
  const Backend& backend = backend_named(GetParam());
  if (backend.name() == "tc" && cuda_device_sm() != 90)
    GTEST_SKIP() << "tc runs only the GPU's own target; these shapes are sm90's and this GPU is sm_" << cuda_device_sm();
  // One row (tiled-fp64 splits each output over lanes there) and few rows (one output per thread) over many
  // K steps, next to the 64 x 64 tiles' edges.
  const std::vector<GemmShape> shapes = {{1, 1, 1, 1},     {1, 1, 1, 0},     {3, 5, 3, 7},     {1, 64, 64, 64},
                                         {1, 65, 63, 33},  {1, 128, 1, 100}, {1, 1, 200, 17},  {4, 33, 70, 49},
                                         {1, 130, 129, 257}, {1, 1, 300, 520}, {3, 1, 40, 100}, {1, 16, 100, 300}};
  size_t cases = 0;
  size_t declined_instructions = 0;
  for (const char* instr : {"mma.m16n8k16.f32.bf16.bf16.f32", "mma.m16n8k16.f16.f16.f16.f16",
                            "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k32.f32.e4m3.e5m2.f32",
                            "wgmma.m64n8k16.f32.f16.f16", "wgmma.m64n8k32.f16.e5m2.e5m2"}) {
    const ref::InstructionModel& m = ref::lookup(ref::Arch::sm90, instr);
    // An instruction the backend leaves to another one by design (tiled-fp64: mma.sync FP8, lowered on Hopper)
    // is passed over; any other decline fails below.
    if (const auto why = backend.declines(m, GemmShape{1, 1, 1, 1}, false); why && unexpected_decline(backend, m, *why).empty()) {
      ++declined_instructions;
      continue;
    }
    for (const GemmShape& s : shapes)
      for (gen::Family f : {gen::Family::realistic, gen::Family::random_bits, gen::Family::carry_chain}) {
        Declined why;
        const size_t n = compare(backend, m, f, s, 99, s.K < 64, &why);
        if (why) ADD_FAILURE() << backend.name() << " declined " << instr << " " << s.M << "x" << s.N << "x" << s.K << ": " << why->detail;
        if (HasFailure()) return;
        // K = 0 or an empty shape has no outputs; every other case compared all of its outputs.
        EXPECT_EQ(n, c_count(s)) << backend.name() << " " << instr;
        ++cases;
      }
  }
  std::printf("[ %s ] %zu cases equal to the reference; %zu instructions left to other backends\n", backend.name().c_str(),
              cases, declined_instructions);
  EXPECT_GE(cases, 4u * shapes.size() * 3) << backend.name() << " ran fewer than four of the six instructions";
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuBackendShapes, ::testing::Values("tiled", "tiled-fp64", "tc"),
                         [](const auto& info) { return test_name_of(info.param); });

// ---- declines ----------------------------------------------------------------------------------------
TEST(TcDeclines, TargetsOtherThanTheGpuWithTheReason) {
  SKIP_WITHOUT_GPU();
  const Backend& tc = backend_named("tc");
  const int sm = cuda_device_sm();
  const ref::Arch other = sm == 89 ? ref::Arch::sm90 : ref::Arch::sm89;
  const auto why = tc.declines(ref::lookup(other, "mma.m16n8k16.f32.bf16.bf16.f32"), {1, 16, 8, 16}, false);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->code, DeclineCode::foreign_target) << why->detail;
  if (sm == 90) {  // a wide wgmma with a trace: only the step-at-a-time N = 8 kernel writes one
    const auto wide = tc.declines(ref::lookup(ref::Arch::sm90, "wgmma.m64n64k16.f32.f16.f16"), {1, 64, 64, 16}, true);
    ASSERT_TRUE(wide.has_value());
    EXPECT_EQ(wide->code, DeclineCode::no_trace) << wide->detail;
  }
}

// ---- tc's pipelined GEMM (wide wgmma) ------------------------------------------------------------------
// Every wide N it has (64, 128, 256) and every operand type, on shapes crossing its 128 x N tile and its
// 4-step K stage, K ending inside a step and rows of A that are not whole 16-byte chunks (padded-A path).
TEST(TcPipelined, WideWgmmaMatchesTheReference) {
  SKIP_WITHOUT_GPU();
  if (cuda_device_sm() != 90) GTEST_SKIP() << "wgmma is sm_90's; this GPU is sm_" << cuda_device_sm();
  const Backend& tc = backend_named("tc");
  size_t outputs = 0;
  for (int n : {64, 128, 256})
    for (const char* kind : {"k16.f32.f16.f16", "k16.f16.f16.f16", "k16.f32.bf16.bf16", "k8.f32.tf32.tf32",
                             "k32.f32.e4m3.e5m2", "k32.f16.e5m2.e4m3"}) {
      const ref::InstructionModel& m = ref::lookup(ref::Arch::sm90, "wgmma.m64n" + std::to_string(n) + kind);
      for (GemmShape s : {GemmShape{1, 1, 1, 1}, GemmShape{2, 130, static_cast<size_t>(n) + 3, 520},
                          GemmShape{1, 129, 2 * static_cast<size_t>(n), 33}, GemmShape{1, 256, 256, 1024}})
        for (gen::Family f : {gen::Family::realistic, gen::Family::cancellation, gen::Family::random_bits}) {
          Declined why;
          const size_t got = compare(tc, m, f, s, 11, false, &why);
          ASSERT_FALSE(why.has_value()) << m.instr.name << ": " << why->detail;
          if (HasFailure()) return;
          outputs += got;
        }
    }
  std::printf("[ tc ] pipelined GEMM: %zu outputs equal to the reference\n", outputs);
}

// ---- operands already on the device ------------------------------------------------------------------------
// GemmProblem::on_device: the same words in device memory must give the same bits as the host path, in
// every GPU backend (simt, tiled and tc; tc where the GPU is its target's).
TEST(DeviceOperands, GiveTheHostPathsBits) {
  SKIP_WITHOUT_GPU();
  const ref::InstructionModel& m = ref::lookup(ref::Arch::sm90, "mma.m16n8k16.f32.bf16.bf16.f32");
  const GemmShape s{2, 70, 67, 100};
  const Problem p = make_problem(m, gen::Family::realistic, s, 5);
  const Expected e = reference_of(m, p);
  DeviceBuffer<uint32_t> A(p.A.size()), B(p.B.size()), C(p.C.size()), D(e.D.size());
  A.upload(p.A.data());
  B.upload(p.B.data());
  C.upload(p.C.data());
  for (const char* name : {"simt", "tiled", "tiled-fp64", "tc"}) {
    const Backend& backend = backend_named(name);
    if (auto why = backend.declines_device_operands()) {
      ADD_FAILURE() << name << " declined device operands: " << why->detail;
      continue;
    }
    if (backend.declines(m, s, false)) continue;  // tc on another GPU than its target's; tiled-fp64 until checked
    D.fill_bytes(0xFF);
    GemmProblem gp{&m, s, A.get(), B.get(), C.get(), D.get(), nullptr};
    gp.on_device = true;
    backend.run(gp);
    std::vector<uint32_t> got(e.D.size());
    D.download(got.data());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(hex(got[i]), hex(e.D[i])) << name << " on device operands, output " << i;
    }
  }
}

// ---- throughput (not a test) --------------------------------------------------------------------------
TEST(GpuBackendThroughput, DISABLED_Gemm4096) {
  SKIP_WITHOUT_GPU();
  const size_t n = 4096;
  const GemmShape s{1, n, n, n};
  for (const char* instr : {"mma.m16n8k16.f32.bf16.bf16.f32", "mma.m16n8k16.f32.f16.f16.f32",
                            "mma.m16n8k16.f16.f16.f16.f16", "wgmma.m64n8k16.f32.bf16.bf16",
                            "wgmma.m64n8k32.f32.e4m3.e4m3", "mma.m16n8k32.f32.e4m3.e4m3.f32",
                            "wgmma.m64n8k8.f32.tf32.tf32"}) {
    const ref::InstructionModel& m = ref::lookup(ref::Arch::sm90, instr);
    const Problem p = make_problem(m, gen::Family::realistic, s, 5);
    for (const char* name : {"tc", "tiled"}) {
      const Backend& backend = backend_named(name);
      if (auto why = backend.declines(m, s, false)) {
        std::printf("%-4s %-34s declined: %s\n", name, instr, why->detail.c_str());
        continue;
      }
      std::vector<uint32_t> D(c_count(s));
      const GemmProblem gp{&m, s, p.A.data(), p.B.data(), p.C.data(), D.data(), nullptr};
      backend.run(gp);  // warm-up
      const RunInfo info = backend.run(gp);
      const double tmacs = static_cast<double>(n) * n * n / (info.kernel_ms * 1e-3) / 1e12;
      // A sample of outputs against the reference (the whole GEMM is too slow on the host).
      size_t bad = 0;
      std::vector<uint32_t> row(n), col(n);
      for (size_t t = 0; t < 64; ++t) {
        const size_t i = (t * 2654435761u) % n, j = (t * 40503u + 17) % n;
        for (size_t k = 0; k < n; ++k) row[k] = p.A[i * n + k], col[k] = p.B[k * n + j];
        uint32_t d = 0;
        ref::gemm(m, 1, 1, n, row.data(), col.data(), &p.C[i * n + j], &d);
        bad += d != D[i * n + j];
      }
      std::printf("%-4s %-34s 4096^3: %8.2f ms  %7.3f TMAC/s  sampled mismatches %zu/64\n", name, instr,
                  info.kernel_ms, tmacs, bad);
      EXPECT_EQ(bad, 0u) << name << " " << instr;
    }
  }
}

}  // namespace
}  // namespace mmaemu::kernels
