#include "harness/probe/library_probe.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <sstream>

#include "harness/cublaslt/lt_model.hpp"
#include "harness/probe/probe_values.hpp"
#include "mmaemu/reference/format.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::probe {
namespace {

using ref::FormatId;

bool is_fp8(FormatId f) { return f == FormatId::e4m3 || f == FormatId::e5m2; }

// --- candidate rules ------------------------------------------------------------------------------------
struct Rule {
  const ref::InstructionModel* instruction = nullptr;  // nullptr: an fp32 FMA chain
  bool tf32_rounded = false;
  size_t promotion_k = 0;
  size_t grain = 0;       // consecutive slices, chunk = ceil(ceil(K / grain) / S) * grain
  size_t interleave = 0;  // or interleaved blocks of this many k
  std::string reduction = "slice order";
  bool beta_fma_single = false, beta_fma_split = true;
  bool alpha_scales_first = false;  // FP8: alpha * (sa * sb) rather than (alpha * sa) * sb

  ref::LibraryPlan plan(const ref::LibraryCall& c, size_t S) const {
    ref::LibraryPlan p;
    p.instruction = instruction;
    p.tf32_rounded = tf32_rounded;
    p.promotion_k = promotion_k;
    p.slices = S;
    size_t existing = S;
    if (interleave && S > 1) {
      p.interleave_block = interleave;
    } else {
      const size_t g = grain ? grain : 1;
      p.chunk = ((c.K + g - 1) / g + S - 1) / S * g;
      existing = std::clamp<size_t>((c.K + p.chunk - 1) / p.chunk, 1, S);
    }
    if (reduction == "adjacent pairs") {  // (p0 + p1) + (p2 + p3) + ...: a tree's first level
      for (size_t t = 0; t < existing; t += 2) p.reduction.push_back(t + 1 < existing ? ref::ReductionStep{t, t + 1} : ref::ReductionStep{t});
    } else {
      p.reduction = reduction == "reversed" ? ref::slice_reduction_order(existing, false)
                                            : ref::slice_reduction_order(existing, reduction == "paired");
      if (reduction == "reversed") std::reverse(p.reduction.begin(), p.reduction.end());
    }
    p.beta_fma = S > 1 ? beta_fma_split : beta_fma_single;
    p.alpha = !is_fp8(c.a) ? c.alpha : alpha_scales_first ? c.alpha * (c.scale_a * c.scale_b) : c.alpha * c.scale_a * c.scale_b;
    return p;
  }
};

std::string slicing_text(const Rule& r) {
  return r.interleave ? "interleaved blocks of " + std::to_string(r.interleave) : "consecutive, grain " + std::to_string(r.grain);
}

// --- calls and operands -----------------------------------------------------------------------------------
struct Call {
  lt::LtCall call;
  int split = 1;
  lt::LtOperands ops;
  bool columns_equal = false;  // every column of B the same: the model computes one
  std::string what;
};

lt::LtCall base_call(const LibraryKernel& k, size_t M, size_t N, size_t K) {
  lt::LtCall c;
  c.a = c.b = k.type;
  c.c = c.d = FormatId::fp32;
  c.compute = k.type == FormatId::tf32 ? lt::ComputeType::f32_fast_tf32 : lt::ComputeType::f32;
  c.M = M;
  c.N = N;
  c.K = K;
  return c;
}

uint32_t bits_of(FormatId f, int64_t m, int e) {
  const auto b = exact_bits(f == FormatId::tf32 ? FormatId::fp32 : f, m < 0, static_cast<uint64_t>(std::llabs(m)), e);
  return b ? *b : 0;
}

// Swamping pairs: B's k in P are large, the rest small; row m of A cancels two large products at its
// pair (i_m, j_m) among small products elsewhere (zero at the other k of P). The small products are
// lost next to a large one in a tensor-core accumulator; `deep`: in an fp32 sum too (FP8's range
// needs the smallest normal operands for that), so that the split-K reduction's order shows as well.
Call pair_call(const LibraryKernel& k, size_t M, size_t N, size_t K, int split, std::mt19937_64& rng, bool deep = false) {
  Call c{base_call(k, M, N, K), split, {}, true, ""};
  const bool fp8 = is_fp8(k.type);
  const int big = fp8 ? 8 : k.type == FormatId::fp16 ? 15 : 20, small = fp8 && deep ? -6 : -2;
  std::vector<size_t> ks(K);
  for (size_t i = 0; i < K; ++i) ks[i] = i;
  std::shuffle(ks.begin(), ks.end(), rng);
  ks.resize(std::min(K, 2 * M));
  std::vector<bool> in_p(K, false);
  for (size_t x : ks) in_p[x] = true;
  c.ops.b.resize(K * N);
  for (size_t kk = 0; kk < K; ++kk)
    for (size_t n = 0; n < N; ++n) c.ops.b[kk * N + n] = bits_of(k.type, 1, in_p[kk] ? big : small);
  c.ops.a.resize(M * K);
  for (size_t m = 0; m < M; ++m)
    for (size_t kk = 0; kk < K; ++kk) c.ops.a[m * K + kk] = in_p[kk] ? bits_of(k.type, 0, 0) : bits_of(k.type, 1, small);
  for (size_t m = 0; m < M && 2 * m + 1 < ks.size(); ++m) {
    c.ops.a[m * K + ks[2 * m]] = bits_of(k.type, 1, big);
    c.ops.a[m * K + ks[2 * m + 1]] = bits_of(k.type, -1, big);
  }
  c.ops.c.assign(M * N, 0);
  c.what = std::string(deep ? "deep " : "") + "pairs K=" + std::to_string(K) + " split-K " + std::to_string(split);
  return c;
}

// Random operands: significands of every width, exponents within a few binades, both signs.
Call random_call(const LibraryKernel& k, size_t M, size_t N, size_t K, int split, std::mt19937_64& rng, bool scalars) {
  Call c{base_call(k, M, N, K), split, {}, false, ""};
  const FormatId f = k.type == FormatId::tf32 ? FormatId::fp32 : k.type;
  const int man = ref::spec(f).man_bits;
  std::uniform_int_distribution<int> ex(-3, 3);
  const auto value = [&]() -> uint32_t {
    const uint64_t sig = (uint64_t{1} << man) | (rng() & ((uint64_t{1} << man) - 1));
    const auto b = exact_bits(f, rng() & 1, sig, ex(rng) - man);
    return b ? *b : 0;
  };
  c.ops.a.resize(M * K);
  c.ops.b.resize(K * N);
  c.ops.c.resize(M * N);
  for (auto& x : c.ops.a) x = value();
  for (auto& x : c.ops.b) x = value();
  for (auto& x : c.ops.c) x = *exact_bits(FormatId::fp32, rng() & 1, (1u << 23) | (rng() & 0x7FFFFF), ex(rng) - 23 + 4);
  if (scalars) {
    c.call.alpha = -1.25f;
    c.call.beta = 0.75f;
    if (is_fp8(k.type)) {
      c.call.scale_a = 0.3f;  // (alpha * 0.3) * 0.7 and alpha * (0.3 * 0.7) differ in fp32
      c.call.scale_b = 0.7f;
    }
  }
  c.what = "random K=" + std::to_string(K) + " split-K " + std::to_string(split) + (scalars ? " alpha -1.25 beta 0.75" : "");
  return c;
}

std::vector<uint32_t> model_of(const Call& c, const Rule& r) {
  const ref::LibraryCall lc = lt::library_call(c.call);
  const ref::LibraryPlan p = r.plan(lc, static_cast<size_t>(c.split));
  if (!c.columns_equal) {
    std::vector<uint32_t> d(lc.M * lc.N);
    ref::library_gemm_planned(lc, p, c.ops.a.data(), c.ops.b.data(), c.ops.c.data(), d.data());
    return d;
  }
  // Every column alike: compute the first and copy it.
  ref::LibraryCall one = lc;
  one.N = 1;
  std::vector<uint32_t> b(lc.K), cc(lc.M), d(lc.M), all(lc.M * lc.N);
  for (size_t k = 0; k < lc.K; ++k) b[k] = c.ops.b[k * lc.N];
  for (size_t m = 0; m < lc.M; ++m) cc[m] = c.ops.c[m * lc.N];
  ref::library_gemm_planned(one, p, c.ops.a.data(), b.data(), cc.data(), d.data());
  for (size_t m = 0; m < lc.M; ++m)
    for (size_t n = 0; n < lc.N; ++n) all[m * lc.N + n] = d[m];
  return all;
}

struct Ran {
  Call call;
  std::vector<uint32_t> d;
  lt::LtAlgoConfig config;  // what the library ran
};

}  // namespace

std::string LibraryKernel::name() const {
  return std::string(ref::format_name(type)) + " algorithm " + std::to_string(algo_id) +
         (custom ? " custom " + std::to_string(custom) : "");
}

std::optional<LibraryKernel> parse_library_kernel(const std::string& text) {
  LibraryKernel k;
  const auto c1 = text.find(':');
  if (c1 == std::string::npos) return std::nullopt;
  const auto f = ref::parse_format(text.substr(0, c1));
  if (!f) return std::nullopt;
  k.type = *f;
  try {
    const std::string rest = text.substr(c1 + 1);
    const auto c2 = rest.find(':');
    k.algo_id = std::stoi(rest.substr(0, c2));
    if (c2 != std::string::npos) k.custom = std::stoi(rest.substr(c2 + 1));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return k;
}

bool LibraryProbe::reproduced() const {
  if (!stopped.empty() || checks.empty()) return false;
  for (const auto& c : checks)
    if (c.mismatches) return false;
  return true;
}

LibraryProbe probe_library_kernel(LibraryOracle& oracle, const LibraryKernel& kernel, uint64_t seed,
                                  const std::function<void(const std::string&)>& progress) {
  const auto started = std::chrono::steady_clock::now();
  LibraryProbe out;
  out.kernel = kernel;
  const auto say = [&](const std::string& s) {
    if (progress) progress(kernel.name() + ": " + s);
  };
  std::mt19937_64 rng(seed);
  std::vector<Ran> history;  // every call run, for the check of the shipped model
  // The shipped library model, with the configuration each call ran, on every call of the probe.
  const auto model_check = [&]() {
    Verification v{"the library model (rules as shipped) on every call above", 0, 0, ""};
    for (const auto& r : history) {
      std::vector<uint32_t> d;
      try {
        d = lt::model_d(r.call.call, r.config, r.call.ops);
      } catch (const std::exception& e) {
        v.first_mismatch = std::string("the model declines: ") + e.what();
        v.mismatches = v.outputs = r.d.size();
        break;
      }
      v.outputs += d.size();
      for (size_t j = 0; j < d.size(); ++j)
        if (d[j] != r.d[j] && v.mismatches++ == 0) v.first_mismatch = r.call.what + " D[" + std::to_string(j / r.call.call.N) + "][" + std::to_string(j % r.call.call.N) + "]";
    }
    out.model_check = v;
  };
  const auto done = [&]() {
    if (!history.empty()) model_check();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
  };
  // Runs a batch of calls on the oracle; false (with out.stopped) when the library will not run one.
  const auto run_all = [&](std::vector<Call> calls, std::vector<Ran>& ran) {
    for (auto& c : calls) {
      std::string why;
      lt::LtAlgoConfig cfg;
      // A custom option is a split-K variant (algorithm 55's paired reduction): the library refuses it at
      // split-K 1, where the kernel runs with option 0.
      auto d = oracle.run(c.call, kernel.algo_id, c.split, c.split > 1 ? kernel.custom : 0, c.ops, &why, &cfg);
      if (!d) {
        out.stopped = c.what + ": " + why;
        return false;
      }
      ran.push_back({std::move(c), std::move(*d), cfg});
      history.push_back(ran.back());
      const std::string line = ran.back().call.what + ": " + cfg.describe();
      if (std::find(out.configs.begin(), out.configs.end(), line) == out.configs.end()) out.configs.push_back(line);
    }
    return true;
  };
  // Candidates that reproduce every output of `ran`.
  const auto decide = [&](const std::string& experiment, const std::vector<std::pair<std::map<std::string, std::string>, Rule>>& cands,
                          const std::vector<Ran>& ran, Rule& chosen) {
    std::vector<size_t> fit;
    size_t outputs = 0, best = 0, best_agree = 0;
    for (const auto& r : ran) outputs += r.d.size();
    for (size_t i = 0; i < cands.size(); ++i) {
      size_t agree = 0;
      for (const auto& r : ran) {
        const auto d = model_of(r.call, cands[i].second);
        for (size_t j = 0; j < d.size(); ++j) agree += d[j] == r.d[j];
      }
      if (agree == outputs) fit.push_back(i);
      if (agree > best_agree) best = i, best_agree = agree;
    }
    if (fit.empty()) {
      std::string v;
      for (const auto& [p, x] : cands[best].first) v += p + "=" + x + " ";
      out.stopped = experiment + ": no candidate rule reproduces all " + std::to_string(outputs) + " outputs; nearest " + v +
                    "agrees on " + std::to_string(best_agree);
      for (const auto& [p, x] : cands[best].first) out.findings.push_back({p, "?", experiment, outputs, FindingStatus::inconsistent, out.stopped});
      return false;
    }
    chosen = cands[fit.front()].second;
    for (const auto& [param, value] : cands[fit.front()].first) {
      std::vector<std::string> seen;
      for (size_t i : fit)
        if (std::find(seen.begin(), seen.end(), cands[i].first.at(param)) == seen.end()) seen.push_back(cands[i].first.at(param));
      Finding f{param, value, experiment, outputs, seen.size() == 1 ? FindingStatus::established : FindingStatus::unobservable, ""};
      if (seen.size() > 1) {
        for (const auto& s : seen) f.detail += (f.detail.empty() ? "these give the same bits: " : ", ") + s;
        f.alternatives = seen;
      }
      out.findings.push_back(f);
    }
    return true;
  };

  const size_t M = 64, N = 16;
  Rule rule;
  rule.tf32_rounded = kernel.type == FormatId::tf32;
  // 1. The main loop: the instruction each slice chains, and the FP8 promotion interval (split-K 1).
  say("main loop");
  std::vector<Ran> loop;
  if (!run_all({pair_call(kernel, M, N, 2048, 1, rng), pair_call(kernel, M, N, 2048, 1, rng), pair_call(kernel, M, N, 1024, 1, rng)}, loop))
    return done();
  {
    std::vector<const ref::InstructionModel*> instrs;
    if (kernel.type != FormatId::fp32)
      for (const auto& m : ref::instructions_of(ref::Arch::sm90))
        if (m.instr.a == kernel.type && m.instr.b == kernel.type && m.instr.d == FormatId::fp32 && !m.lowering &&
            !ref::is_wide_n_variant(m.instr))
          instrs.push_back(&m);
    // wgmma first: where an mma.sync form has the same block model the bits cannot tell them apart, and
    // Hopper's GEMM kernels are wgmma kernels.
    std::stable_partition(instrs.begin(), instrs.end(), [](const ref::InstructionModel* m) { return m->instr.family == ref::InstrFamily::wgmma; });
    instrs.push_back(nullptr);  // an fp32 FMA chain (SIMT)
    std::vector<std::pair<std::map<std::string, std::string>, Rule>> cands;
    const std::vector<size_t> promotions = is_fp8(kernel.type) ? std::vector<size_t>{0, 32, 64, 128, 256, 512} : std::vector<size_t>{0};
    for (const auto* in : instrs)
      for (size_t pk : promotions) {
        Rule r = rule;
        r.instruction = in;
        r.promotion_k = pk;
        cands.push_back({{{"main-loop", in ? in->instr.name : "fp32 fma chain"},
                          {"promotion", pk ? "every " + std::to_string(pk) + " products" : "none"}},
                         r});
      }
    if (!decide("main loop", cands, loop, rule)) return done();
  }
  // 2. Split-K: slicing and reduction order, at three split counts and a K no multiple of 128 bytes.
  say("split-K");
  std::vector<Ran> split;
  std::vector<Call> split_calls;
  for (bool deep : {false, true}) {
    for (int s : {2, 3, 4}) split_calls.push_back(pair_call(kernel, M, N, 2048, s, rng, deep));
    for (int s : {2, 3}) split_calls.push_back(pair_call(kernel, M, N, 1040, s, rng, deep));
  }
  if (!run_all(std::move(split_calls), split)) return done();
  {
    std::vector<std::pair<std::map<std::string, std::string>, Rule>> cands;
    for (const char* red : {"slice order", "paired", "reversed", "adjacent pairs"}) {
      for (size_t g : {8, 16, 32, 64, 128, 256, 512, 1024}) {
        Rule r = rule;
        r.grain = g;
        r.reduction = red;
        cands.push_back({{{"slicing", slicing_text(r)}, {"reduction", red}}, r});
      }
      for (size_t b : {4, 8, 16, 32, 64, 128, 256}) {
        Rule r = rule;
        r.interleave = b;
        r.reduction = red;
        cands.push_back({{{"slicing", slicing_text(r)}, {"reduction", red}}, r});
      }
    }
    if (!decide("split-K", cands, split, rule)) return done();
  }
  // 3. The epilogue, without and with split-K (and how FP8 scales fold into alpha).
  say("epilogue");
  std::vector<Ran> epi;
  if (!run_all({random_call(kernel, M, N, 1024, 1, rng, true), random_call(kernel, M, N, 1024, 2, rng, true)}, epi)) return done();
  {
    std::vector<std::pair<std::map<std::string, std::string>, Rule>> cands;
    for (bool single : {false, true})
      for (bool splitf : {false, true})
        for (bool fold : is_fp8(kernel.type) ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
          Rule r = rule;
          r.beta_fma_single = single;
          r.beta_fma_split = splitf;
          r.alpha_scales_first = fold;
          const auto form = [](bool b) { return std::string(b ? "fma(beta, C, alpha*acc)" : "fma(alpha, acc, beta*C)"); };
          std::map<std::string, std::string> v = {{"epilogue, split-K 1", form(single)}, {"epilogue, split-K > 1", form(splitf)}};
          if (is_fp8(kernel.type)) v["alpha'"] = fold ? "alpha*(sa*sb)" : "(alpha*sa)*sb";
          cands.push_back({v, r});
        }
    if (!decide("epilogue", cands, epi, rule)) return done();
  }
  // 4. Checks: every probe output again, and fresh random calls at another K and split-K.
  say("verifying");
  std::vector<Ran> fresh;
  std::mt19937_64 fresh_rng(seed * 1000003 + 7);
  if (!run_all({random_call(kernel, M, N, 3072, 1, fresh_rng, true), random_call(kernel, M, N, 3072, 3, fresh_rng, true),
                random_call(kernel, M, N, 4096, 2, fresh_rng, false)},
               fresh))
    return done();
  const auto check = [&](const std::string& what, const std::vector<Ran>& ran) {
    Verification v{what, 0, 0, ""};
    for (const auto& r : ran) {
      const auto d = model_of(r.call, rule);
      v.outputs += d.size();
      for (size_t j = 0; j < d.size(); ++j)
        if (d[j] != r.d[j] && v.mismatches++ == 0)
          v.first_mismatch = r.call.what + " D[" + std::to_string(j / r.call.call.N) + "][" + std::to_string(j % r.call.call.N) + "]";
    }
    out.checks.push_back(v);
  };
  std::vector<Ran> all_probe = loop;
  all_probe.insert(all_probe.end(), split.begin(), split.end());
  all_probe.insert(all_probe.end(), epi.begin(), epi.end());
  check("probe calls", all_probe);
  check("fresh random calls (K 3072 and 4096, split-K 1, 2, 3)", fresh);

  // The shipped model's rules on the same calls, for the report.
  const auto builtin_plan = [&](size_t K, int S) {
    lt::LtCall c = base_call(kernel, M, N, K);
    return ref::plan_library_gemm(lt::library_call(c), ref::LibraryAlgo{S, 0, kernel.algo_id, kernel.custom, 0});
  };
  try {
    const auto p1 = builtin_plan(2048, 1), p3 = builtin_plan(2048, 3);
    const auto call = lt::library_call(base_call(kernel, M, N, 2048));
    out.builtin = {{"main-loop", p1.instruction ? p1.instruction->instr.name : "fp32 fma chain"},
                   {"promotion", p1.promotion_k ? "every " + std::to_string(p1.promotion_k) + " products" : "none"},
                   {"slicing", p3.interleave_block ? "interleaved blocks of " + std::to_string(p3.interleave_block)
                                                   : "consecutive, grain " + std::to_string(ref::split_grain(call, {3, 0, kernel.algo_id, kernel.custom, 0}))},
                   {"reduction", p3.reduction == ref::slice_reduction_order(p3.slices, false) ? "slice order"
                                 : p3.reduction == ref::slice_reduction_order(p3.slices, true) ? "paired"
                                                                                                : "other"},
                   {"epilogue, split-K 1", p1.beta_fma ? "fma(beta, C, alpha*acc)" : "fma(alpha, acc, beta*C)"},
                   {"epilogue, split-K > 1", p3.beta_fma ? "fma(beta, C, alpha*acc)" : "fma(alpha, acc, beta*C)"}};
    if (is_fp8(kernel.type)) out.builtin.push_back({"alpha'", "(alpha*sa)*sb"});
  } catch (const std::exception& e) {
    out.builtin = {{"model", std::string("declines: ") + e.what()}};
  }
  return done();
}

std::string library_report_markdown(const std::string& oracle, const std::vector<LibraryProbe>& probes) {
  std::ostringstream o;
  o << "# mmaemu probe --cublaslt\n\n- oracle: " << oracle << "\n\n"
    << "| kernel | main loop | promotion | slicing | reduction | checks | vs the library model |\n|---|---|---|---|---|--:|---|\n";
  const auto value = [](const LibraryProbe& p, const std::string& param) {
    for (const auto& f : p.findings)
      if (f.parameter == param) return f.value;
    return std::string();
  };
  const auto builtin = [](const LibraryProbe& p, const std::string& param) {
    for (const auto& [k, v] : p.builtin)
      if (k == param) return v;
    return std::string();
  };
  for (const auto& p : probes) {
    size_t n = 0, bad = 0;
    for (const auto& c : p.checks) n += c.outputs, bad += c.mismatches;
    std::string differs;
    for (const auto& f : p.findings)
      if (f.value != builtin(p, f.parameter) && f.status != FindingStatus::unobservable) differs += (differs.empty() ? "" : ", ") + f.parameter;
    o << "| " << p.kernel.name() << " | " << value(p, "main-loop") << " | " << value(p, "promotion") << " | " << value(p, "slicing")
      << " | " << value(p, "reduction") << " | " << (n - bad) << " / " << n << " | "
      << (!p.reproduced() ? "NOT ESTABLISHED: " + p.stopped : differs.empty() ? "equal" : "differs: " + differs) << " |\n";
  }
  for (const auto& p : probes) {
    o << "\n## " << p.kernel.name() << "\n\n";
    if (!p.stopped.empty()) o << "**Not established**: " << p.stopped << "\n\n";
    o << "| rule | inferred | status | experiment | outputs | library model | detail |\n|---|---|---|---|--:|---|---|\n";
    for (const auto& f : p.findings)
      o << "| " << f.parameter << " | " << f.value << " | " << status_name(f.status) << " | " << f.experiment << " | "
        << f.inputs << " | " << builtin(p, f.parameter) << " | " << f.detail << " |\n";
    o << "\n| check | outputs | mismatches | first mismatch |\n|---|--:|--:|---|\n";
    for (const auto& v : p.checks) o << "| " << v.what << " | " << v.outputs << " | " << v.mismatches << " | " << v.first_mismatch << " |\n";
    if (p.model_check.outputs)
      o << "| " << p.model_check.what << " | " << p.model_check.outputs << " | " << p.model_check.mismatches << " | "
        << p.model_check.first_mismatch << " |\n";
    o << "\nConfigurations the library ran:\n\n";
    for (const auto& c : p.configs) o << "- " << c << "\n";
    o << "\n" << p.seconds << " s.\n";
  }
  return o.str();
}

}  // namespace mmaemu::probe
