// Properties of the library GEMM model (cuBLASLt on an H200, reference/library_gemm.hpp):
//   library-engines-equal-reference: the kernels' engines (host; cuda where a GPU is) give the
//     reference's bits for any call and algorithm configuration (a bias epilogue under each reduction scheme included);
//   library-one-slice: without split-K (alpha 1, beta 0) the call is the plain chain of its main-loop
//     instruction from +0 (FP8 without fast accumulation: promoted into fp32 every 128 products),
//     rounded once to D;
//   library-slices-cover-k: whatever the split-K count, algorithm and stage depth, every k is counted
//     exactly once (small integers, where every sum is exact, give the exact result).
#include <bit>
#include <cmath>
#include <functional>

#include "harness/core/comparator.hpp"
#include "harness/properties/catalogue_parts.hpp"
#include "generators/format_bits.hpp"
#include "kernels/library/library_gemm.hpp"
#include "harness/properties/problem.hpp"
#include "harness/properties/rc_check.hpp"

namespace mmaemu::props {
namespace {

using ref::FormatId;

struct CallType {
  FormatId a, b;
  std::string name() const {
    return a == b ? std::string(ref::format_name(a)) : std::string(ref::format_name(a)) + "x" + std::string(ref::format_name(b));
  }
  bool fp8() const { return a == FormatId::e4m3 || a == FormatId::e5m2; }
};

const std::vector<CallType>& call_types() {
  static const std::vector<CallType> types = {
      {FormatId::bf16, FormatId::bf16}, {FormatId::fp16, FormatId::fp16}, {FormatId::tf32, FormatId::tf32},
      {FormatId::fp32, FormatId::fp32}, {FormatId::e4m3, FormatId::e4m3}, {FormatId::e4m3, FormatId::e5m2},
      {FormatId::e5m2, FormatId::e4m3}, {FormatId::e5m2, FormatId::e5m2}};
  return types;
}

// Algorithm ids whose rules the model distinguishes, and -1 (unknown: the input type's defaults).
const std::vector<int>& algo_ids() { return ref::modelled_algorithms(); }

struct LibraryCase {
  ref::LibraryCall call;
  ref::LibraryAlgo algo;
  std::vector<uint32_t> A, B, C;
};

float as_float(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t as_bits(float f) { return std::bit_cast<uint32_t>(f); }

// In a quarter of the tf32 cases, one element of A becomes an fp32 NaN whose payload lies only in the
// 13 bits tf32 drops: a NaN to the library (on an H200), which the families almost never draw.
void maybe_plant_low_payload_nan(LibraryCase& lc) {
  if (lc.call.a == FormatId::tf32 && *rc::gen::inRange(0, 4) == 0)
    lc.A[*rc::gen::inRange<size_t>(0, lc.A.size())] = 0x7F800000u | *rc::gen::inRange<uint32_t>(1, 0x2000);
}

// One group per call type the library accepts ("<property>/<type>"); the one it refuses is listed.
std::vector<GroupOutcome> per_call_type(const std::string& property, const Budget& budget,
                                        const std::function<void(const CallType&)>& body) {
  std::vector<GroupOutcome> out;
  for (const CallType& type : call_types()) {
    const std::string group = property + "/" + type.name();
    ref::LibraryCall probe;
    probe.a = type.a;
    probe.b = type.b;
    probe.K = 16;
    if (auto why = ref::library_refuses(probe)) {
      out.push_back(not_applicable(group, "the library refuses it: " + why->detail));
      continue;
    }
    out.push_back(run_group(group, Expect::holds, "", budget, [&] { body(type); }));
  }
  return out;
}

// A call of this type the library accepts: FP8 K rounded up to a multiple of 16 and M to a multiple of
// 16 (D's leading dimension 16-byte aligned) where they must be.
ref::LibraryCall draw_call(const CallType& type, std::vector<FormatId> d_types, size_t max_k) {
  ref::LibraryCall c;
  c.a = type.a;
  c.b = type.b;
  c.d = c.c = *rc::gen::elementOf(d_types);
  c.M = *rc::gen::inRange<size_t>(1, 10);
  c.N = *rc::gen::inRange<size_t>(1, 10);
  c.K = *rc::gen::inRange<size_t>(1, max_k + 1);
  if (type.fp8()) c.fast_accum = *rc::gen::arbitrary<bool>();
  if (ref::library_refuses(c)) c.K = (c.K + 15) / 16 * 16;
  if (ref::library_refuses(c)) c.M = (c.M + 15) / 16 * 16;
  return c;
}

// A configuration for `call` of a modelled algorithm; one the model declines for this call (no rules
// recorded for it: ref::model_declines) is outside every library property's domain.
ref::LibraryAlgo draw_algo(const ref::LibraryCall& call, int max_split) {
  ref::LibraryAlgo a;
  a.split_k = *rc::gen::inRange(1, max_split + 1);
  a.algo_id = *rc::gen::elementOf(algo_ids());
  a.custom = *rc::gen::inRange(0, 2);
  a.stage_k = *rc::gen::elementOf(std::vector<size_t>{0, 8, 16, 32});
  // Under split-K, the reduction scheme: the mma.sync kernels (23, 24) read all three (1: in place in D's
  // type, 4: partials in D's type); the model declines scheme 1 on the others, so it is not drawn there.
  if (a.split_k > 1) {
    const bool mma_sync = a.algo_id == 23 || a.algo_id == 24;
    a.reduction = *rc::gen::elementOf(mma_sync ? std::vector<int>{0, 1, 2, 4} : std::vector<int>{0, 2, 4});
  }
  if (ref::model_declines(call, a)) discard("a configuration the model declines for this call");
  return a;
}

void draw_family_operands_into(LibraryCase& lc) {
  ref::Instruction formats{"", ref::InstrFamily::mma_sync, 0, 0, 0, lc.call.a, lc.call.b, lc.call.c, lc.call.d, {}, std::nullopt};
  const Operands o = draw_family_operands(formats, {1, lc.call.M, lc.call.N, lc.call.K}, draw_family());
  lc.A = o.A;
  lc.B = o.B;
  lc.C = o.C;
}

std::string describe(const LibraryCase& lc) {
  const ref::LibraryCall& c = lc.call;
  std::string s = "cublaslt-h200 " + std::string(ref::format_name(c.a)) + "x" + std::string(ref::format_name(c.b)) + "->" +
                  std::string(ref::format_name(c.d)) + " M " + std::to_string(c.M) + " N " + std::to_string(c.N) +
                  " K " + std::to_string(c.K) + " alpha " + std::to_string(c.alpha) + " beta " + std::to_string(c.beta);
  if (c.a == FormatId::e4m3 || c.a == FormatId::e5m2)
    s += " scale_a " + std::to_string(c.scale_a) + " scale_b " + std::to_string(c.scale_b) + (c.fast_accum ? " fast" : " promoted");
  s += " algo " + std::to_string(lc.algo.algo_id) + " split_k " + std::to_string(lc.algo.split_k) + " custom " +
       std::to_string(lc.algo.custom) + " stage_k " + std::to_string(lc.algo.stage_k) + " reduction " +
       std::to_string(lc.algo.reduction) + (c.bias ? " epilogue bias" : "");
  const int wa = word_bytes(c.a), wb = word_bytes(c.b), wc = word_bytes(c.c);
  return s + " a=" + hex_list(lc.A.data(), lc.A.size(), wa) + " b=" + hex_list(lc.B.data(), lc.B.size(), wb) +
         " c=" + hex_list(lc.C.data(), lc.C.size(), wc);
}

// Refutes with the case when D differs from `want` anywhere.
void require_equal(const LibraryCase& lc, const std::vector<uint32_t>& want, const std::vector<uint32_t>& got,
                   const std::string& what, const std::string& engine) {
  size_t o = 0;
  while (o < want.size() && want[o] == got[o]) ++o;
  if (o == want.size()) return;
  const ref::LibraryCall& c = lc.call;
  Counterexample ce;
  ce.what = what + ": D[" + std::to_string(o / c.N) + "][" + std::to_string(o % c.N) + "]";
  ce.inputs = describe(lc);
  ce.expected = hex_bits(want[o], word_bytes(c.d));
  ce.got = hex_bits(got[o], word_bytes(c.d));
  const auto array = [](const std::vector<uint32_t>& v, std::vector<size_t> shape, FormatId f) {
    NpyArray a;
    a.word_bytes = word_bytes(f);
    a.shape = std::move(shape);
    a.values = v;
    return a;
  };
  ce.files.emplace_back("a", array(lc.A, {c.M, c.K}, c.a));
  ce.files.emplace_back("b", array(lc.B, {c.K, c.N}, c.b));
  ce.files.emplace_back("c", array(lc.C, {c.M, c.N}, c.c));
  ce.text_files.emplace_back("algo.json", "{\"algo_id\": " + std::to_string(lc.algo.algo_id) +
                                              ", \"tile\": 0, \"stages\": 0, \"stages_name\": \"" +
                                              (lc.algo.stage_k ? std::to_string(lc.algo.stage_k) + "x1" : "") +
                                              "\", \"split_k\": " + std::to_string(lc.algo.split_k) +
                                              ", \"reduction\": " + std::to_string(lc.algo.reduction) +
                                              ", \"custom\": " + std::to_string(lc.algo.custom) + "}\n");
  std::string cmd = "mmaemu gemm --library cublaslt-h200 --a-type " + std::string(ref::format_name(c.a)) + " --b-type " +
                    std::string(ref::format_name(c.b)) + " --d-type " + std::string(ref::format_name(c.d)) +
                    " --alpha " + std::to_string(c.alpha) + " --beta " + std::to_string(c.beta) + (c.bias ? " --bias" : "");
  if (c.a == FormatId::e4m3 || c.a == FormatId::e5m2)
    cmd += " --scale-a " + std::to_string(c.scale_a) + " --scale-b " + std::to_string(c.scale_b) + (c.fast_accum ? " --fast-accum" : "");
  cmd += " --algo {dir}/algo.json --a {dir}/a.npy --b {dir}/b.npy --c {dir}/c.npy --out {dir}/d-" + engine + ".npy";
  ce.replay.push_back(cmd + (engine == "reference" ? "" : " --backend " + engine));
  refute(std::move(ce));
}

std::vector<uint32_t> reference_d(const LibraryCase& lc) {
  std::vector<uint32_t> d(lc.call.M * lc.call.N, kernels::kPoison);
  ref::library_gemm(lc.call, lc.algo, lc.A.data(), lc.B.data(), lc.C.data(), d.data());
  return d;
}

// --- library-engines-equal-reference -------------------------------------------------------------------
std::vector<GroupOutcome> check_engines(const Scope& scope, const Budget& budget) {
  std::vector<GroupOutcome> out;
  for (const std::string& name : scope.library_engines) {
    const kernels::LibraryEngine engine = *kernels::parse_library_engine(name);
    const std::string group = "library-engines-equal-reference/" + name;
    if (auto why = kernels::library_engine_declines(engine)) {
      out.push_back(not_applicable(group, why->detail));
      continue;
    }
    out.push_back(run_group(group, Expect::holds, "", budget, [&] {
      CallType type = *rc::gen::elementOf(call_types());
      if (type.a == FormatId::e5m2 && type.b == FormatId::e5m2) type.b = FormatId::e4m3;  // refused: no e5m2 x e5m2
      LibraryCase lc;
      lc.call = draw_call(type, {FormatId::fp32, FormatId::bf16, FormatId::fp16}, 300);
      lc.call.alpha = *rc::gen::elementOf(std::vector<float>{1.0f, 0.5f, -2.0f, 3.75f});
      lc.call.beta = *rc::gen::elementOf(std::vector<float>{0.0f, 1.0f, -0.5f});
      if (type.fp8()) {
        lc.call.scale_a = *rc::gen::elementOf(std::vector<float>{1.0f, 0.25f, 3.0f});
        lc.call.scale_b = *rc::gen::elementOf(std::vector<float>{1.0f, 0.125f, 1.5f});
      }
      // One case in four a bias epilogue (alpha 1, C the bias broadcast) under one of its reduction schemes.
      if (!type.fp8() && *rc::gen::inRange(0, 4) == 0) {
        lc.call.bias = true;
        lc.call.alpha = lc.call.beta = 1.0f;
      }
      lc.algo = draw_algo(lc.call, 8);
      if (lc.call.bias) {
        // Half of them on the mma.sync kernels under split-K, where the in-place (scheme 1) and the
        // after-rounding (scheme 4) forms were recorded; the others under any scheme their split allows.
        if (*rc::gen::inRange(0, 2) == 0) {
          lc.algo.algo_id = *rc::gen::elementOf(std::vector<int>{23, 24});
          lc.algo.split_k = *rc::gen::inRange(2, 9);
          lc.algo.reduction = *rc::gen::elementOf(std::vector<int>{1, 4});
        } else if (lc.algo.split_k > 1) {
          lc.algo.reduction = *rc::gen::elementOf(std::vector<int>{1, 2, 4});
        }
        if (ref::model_declines(lc.call, lc.algo)) discard("a bias configuration the model declines");
      }
      draw_family_operands_into(lc);
      if (lc.call.bias)  // C as the bias epilogue reads it: one value per row of D
        for (size_t m = 0; m < lc.call.M; ++m)
          for (size_t n = 1; n < lc.call.N; ++n) lc.C[m * lc.call.N + n] = lc.C[m * lc.call.N];
      maybe_plant_low_payload_nan(lc);
      std::vector<uint32_t> got(lc.call.M * lc.call.N, kernels::kPoison);
      kernels::library_gemm(engine, lc.call, lc.algo, lc.A.data(), lc.B.data(), lc.C.data(), got.data());
      require_equal(lc, reference_d(lc), got, "the " + name + " engine against the reference", name);
    }));
  }
  return out;
}

// --- library-one-slice -----------------------------------------------------------------------------------
// The plain chain, computed from the documented rules without the library model's plan, so that a
// fault in the plan shows: the main-loop wgmma of the input types (k16 for 16-bit, k8 for tf32 on
// operands rounded to tf32 to nearest-even, k32 for FP8) from +0 (ref::gemm), or an FMA chain in float
// for fp32; FP8 without fast accumulation promoted into fp32 every 128 products.
constexpr size_t kPromotionK = 128;

// fp32, and tf32 run by algorithm 55 (an fp32 SIMT kernel whatever the compute type): fp32 fma chains.
bool fma_chain(const ref::LibraryCall& c, const ref::LibraryAlgo& algo) {
  return c.a == FormatId::fp32 || (c.a == FormatId::tf32 && algo.algo_id == 55);
}

const ref::InstructionModel* main_loop_instruction(const ref::LibraryCall& c, const ref::LibraryAlgo& algo) {
  if (fma_chain(c, algo)) return nullptr;
  const auto ptx = [](FormatId f) { return f == FormatId::fp16 ? std::string("f16") : std::string(ref::format_name(f)); };
  const int k = c.a == FormatId::tf32 ? 8 : CallType{c.a, c.b}.fp8() ? 32 : 16;
  return &ref::lookup(ref::Arch::sm90, "wgmma.m64n8k" + std::to_string(k) + ".f32." + ptx(c.a) + "." + ptx(c.b));
}

std::vector<uint32_t> plain_chain(const LibraryCase& lc) {
  const ref::LibraryCall& c = lc.call;
  const ref::InstructionModel* instruction = main_loop_instruction(c, lc.algo);
  std::vector<uint32_t> A = lc.A, B = lc.B;
  if (c.a == FormatId::tf32 && !fma_chain(c, lc.algo))
    for (auto* v : {&A, &B})
      for (uint32_t& x : *v) x = ref::convert(FormatId::fp32, x, FormatId::tf32, ref::Rounding::nearest_even);
  std::vector<uint32_t> d(c.M * c.N);
  const size_t piece = CallType{c.a, c.b}.fp8() && !c.fast_accum ? kPromotionK : c.K;
  for (size_t m = 0; m < c.M; ++m)
    for (size_t n = 0; n < c.N; ++n) {
      float total = 0.0f;
      for (size_t k0 = 0; k0 < c.K; k0 += piece) {
        const size_t len = std::min(piece, c.K - k0);
        float part = 0.0f;
        if (!instruction) {
          for (size_t k = k0; k < k0 + len; ++k) part = std::fma(as_float(A[m * c.K + k]), as_float(B[k * c.N + n]), part);
        } else {
          std::vector<uint32_t> a(len), b(len);
          for (size_t k = 0; k < len; ++k) {
            a[k] = A[m * c.K + k0 + k];
            b[k] = B[(k0 + k) * c.N + n];
          }
          const uint32_t zero = 0;
          uint32_t acc = 0;
          ref::gemm(*instruction, 1, 1, len, a.data(), b.data(), &zero, &acc);
          part = as_float(acc);
        }
        total = k0 == 0 ? part : total + part;
      }
      d[m * c.N + n] = std::isnan(total) ? ref::canonical_nan(c.d)
                                         : ref::convert(FormatId::fp32, as_bits(total), c.d, ref::Rounding::nearest_even);
    }
  return d;
}

std::vector<GroupOutcome> check_one_slice(const Scope&, const Budget& budget) {
  return per_call_type("library-one-slice", budget, [](const CallType& type) {
    LibraryCase lc;
    lc.call = draw_call(type, {FormatId::fp32, FormatId::bf16, FormatId::fp16}, 300);
    // Algorithms 23 and 24 chain mma.sync tiles of their own, not the input type's main-loop wgmma.
    std::vector<int> plain_ids;
    for (const int id : algo_ids())
      if (id != 23 && id != 24) plain_ids.push_back(id);
    lc.algo.algo_id = *rc::gen::elementOf(plain_ids);
    lc.algo.stage_k = *rc::gen::elementOf(std::vector<size_t>{0, 8, 16, 32});
    // A configuration the model declines (tf32 algorithm 20 with K below 8) is outside the domain.
    if (ref::model_declines(lc.call, lc.algo)) discard("a configuration the model declines for this call");
    // A tf32 K tail runs its residue first (rule 3), which is not the plain chain: K is taken up to a
    // multiple of the residue's block.
    ref::LibraryPlan plan = ref::plan_library_gemm(lc.call, lc.algo);
    if (plan.residue_first && lc.call.K % plan.residue_first) {
      lc.call.K = (lc.call.K + plan.residue_first - 1) / plan.residue_first * plan.residue_first;
      plan = ref::plan_library_gemm(lc.call, lc.algo);
    }
    if (plan.residue_first && lc.call.K % plan.residue_first) discard("a tf32 K tail runs its residue first");
    draw_family_operands_into(lc);
    maybe_plant_low_payload_nan(lc);
    require_equal(lc, plain_chain(lc), reference_d(lc), "one slice against the plain chain (expected)", "reference");
  });
}

// --- library-slices-cover-k --------------------------------------------------------------------------------
std::vector<GroupOutcome> check_slices(const Scope&, const Budget& budget) {
  return per_call_type("library-slices-cover-k", budget, [](const CallType& type) {
    LibraryCase lc;
    lc.call = draw_call(type, {FormatId::fp32}, 600);
    lc.call.beta = *rc::gen::elementOf(std::vector<float>{0.0f, 1.0f});
    lc.algo = draw_algo(lc.call, 16);
    const ref::LibraryCall& c = lc.call;
    // Every partial sum exact: in the FP8 accumulator (14 bits), fp32 and the tensor core's alignment.
    const long total = 1L << 13;
    const long op = std::min({exact_integer_limit(c.a), exact_integer_limit(c.b),
                              static_cast<long>(std::sqrt(static_cast<double>(total / 2) / static_cast<double>(c.K)))});
    if (op < 1) discard("K too long for exact small integers");
    const auto ints = [](size_t n, long limit) { return *rc::gen::container<std::vector<long>>(n, small_integer(limit)); };
    const auto a = ints(c.M * c.K, op), b = ints(c.K * c.N, op), cc = ints(c.M * c.N, total / 2);
    lc.A = encode_integers(c.a, a);
    lc.B = encode_integers(c.b, b);
    lc.C = encode_integers(c.c, cc);
    std::vector<uint32_t> want(c.M * c.N);
    // Where the slices end: K, or before K's tail where algorithm 66 leaves it out (split_slices_end).
    const size_t end = ref::split_slices_end(c, lc.algo);
    for (size_t m = 0; m < c.M; ++m)
      for (size_t n = 0; n < c.N; ++n) {
        long s = c.beta != 0.0f ? cc[m * c.N + n] : 0;
        for (size_t k = 0; k < end; ++k) s += a[m * c.K + k] * b[k * c.N + n];
        want[m * c.N + n] = as_bits(static_cast<float>(s));
      }
    require_equal(lc, want, reference_d(lc), "the exact integer sum (every k up to the slices' end once)", "reference");
  });
}

}  // namespace

Property library_engines_equal_reference() {
  return {"library-engines-equal-reference", "library",
          "the kernels' library engines (host; cuda where a GPU is) give the library model's D bit for bit, for any "
          "call (types, alpha, beta, FP8 scales and fast accumulation) and algorithm configuration",
          check_engines};
}

Property library_one_slice() {
  return {"library-one-slice", "library",
          "without split-K (alpha 1, beta 0) a library call equals the plain chain of its main-loop instruction from +0 (fp32 "
          "fmas for fp32, and for tf32 under algorithm 55, an fp32 SIMT kernel) "
          "(FP8 without fast accumulation promoted into fp32 every 128 products), rounded once to D; not where a tf32 "
          "K tail runs its residue first",
          check_one_slice};
}

Property library_slices_cover_k() {
  return {"library-slices-cover-k", "library",
          "for any split-K count, algorithm and stage depth, the slices count every k exactly once, up to where they end "
          "(K, or before the K tail algorithm 66 leaves out): small integers give the exact sum",
          check_slices};
}

}  // namespace mmaemu::props
