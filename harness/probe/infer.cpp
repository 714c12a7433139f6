#include "harness/probe/infer.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <deque>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "harness/profiles/profile_words.hpp"
#include "mmaemu/reference/format.hpp"

namespace mmaemu::probe {
namespace {

using ref::InstructionModel;

std::string hex(uint32_t x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", x);
  return buf;
}

// --- tiles ------------------------------------------------------------------------------------------
// P = min(M, N) cases per tile on the diagonal: row r of A is case r % P's a, column n of B case
// n % P's b, and C holds case c where r % P == n % P (+0 elsewhere). Output (r, n) with r % P == n % P
// is that case again: every copy must agree. The other outputs are mixtures of two cases, compared only
// against the whole model at the end.
int cases_per_tile(const ref::Instruction& in) { return std::min(in.m, in.n); }

record::InstructionRecording pack(const ref::Instruction& in, const std::vector<ProbeCase>& cases) {
  const int P = cases_per_tile(in), M = in.m, N = in.n, K = in.k;
  record::InstructionRecording r;
  r.instr = in;
  r.tiles = static_cast<int>((cases.size() + P - 1) / P);
  r.a.resize(static_cast<size_t>(r.tiles) * M * K);
  r.b.resize(static_cast<size_t>(r.tiles) * K * N);
  r.c.assign(static_cast<size_t>(r.tiles) * M * N, ref::zero_bits(in.c, false));
  const auto at = [&](size_t t, int slot) -> const ProbeCase& {
    const size_t i = t * P + slot;
    return cases[i < cases.size() ? i : 0];
  };
  for (size_t t = 0; t < static_cast<size_t>(r.tiles); ++t) {
    for (int row = 0; row < M; ++row) {
      const ProbeCase& c = at(t, row % P);
      std::copy(c.a.begin(), c.a.end(), r.a.begin() + (t * M + row) * K);
      for (int n = 0; n < N; ++n)
        if (n % P == row % P) r.c[(t * M + row) * N + n] = c.c;
    }
    for (int n = 0; n < N; ++n) {
      const ProbeCase& c = at(t, n % P);
      for (int k = 0; k < K; ++k) r.b[(t * K + k) * N + n] = c.b[k];
    }
  }
  return r;
}

// Each case's D from the oracle's tiles (the first copy the oracle gave; a case none of whose copies
// it gave is marked in *missing); throws when two copies of one case differ.
std::vector<uint32_t> case_results(const record::InstructionRecording& r, size_t count, const std::vector<bool>& unanswered,
                                   std::vector<bool>* missing) {
  const ref::Instruction& in = r.instr;
  const int P = cases_per_tile(in), M = in.m, N = in.n;
  std::vector<uint32_t> out(count);
  const auto given = [&](size_t o) { return unanswered.empty() || !unanswered[o]; };
  if (!unanswered.empty()) missing->assign(count, true);
  for (size_t i = 0; i < count; ++i) {
    const size_t t = i / P;
    const int slot = static_cast<int>(i % P);
    bool first = true;
    for (int row = slot; row < M; row += P)
      for (int n = slot; n < N; n += P) {
        const size_t o = (t * M + row) * N + n;
        if (!given(o)) continue;
        if (first) {
          out[i] = r.d[o];
          first = false;
          if (!unanswered.empty()) (*missing)[i] = false;
        }
        if (r.d[o] != out[i])
          throw std::runtime_error(in.name + ": the same inputs gave " + hex(out[i]) + " and " + hex(r.d[o]) + " in one launch");
      }
  }
  return out;
}

struct Ran {
  Experiment experiment;
  record::InstructionRecording tiles;  // with d
  std::vector<uint32_t> results;       // per case
  std::vector<bool> unanswered = {};   // per output of tiles: the oracle could not give it (recordings)
  std::vector<bool> case_missing = {}; // per case: its output was not given; left out of every comparison
  bool answered(size_t i) const { return case_missing.empty() || !case_missing[i]; }
  size_t answered_cases() const {
    size_t n = 0;
    for (size_t i = 0; i < experiment.cases.size(); ++i) n += answered(i);
    return n;
  }
};

// --- candidates ---------------------------------------------------------------------------------------
struct Candidate {
  std::map<std::string, std::string> values;  // parameter -> value, as the profile file words it
  InstructionModel model;
};

struct Verdict {
  std::vector<const Candidate*> matching;
  const Candidate* nearest = nullptr;  // most cases agreeing, when none matches
  size_t nearest_agree = 0;
  size_t nearest_first_miss = 0;
};

Verdict judge(const std::vector<Candidate>& candidates, const Ran& ran) {
  Verdict v;
  for (const Candidate& c : candidates) {
    size_t agree = 0, first_miss = SIZE_MAX;
    for (size_t i = 0; i < ran.experiment.cases.size(); ++i) {
      if (!ran.answered(i)) continue;
      const ProbeCase& pc = ran.experiment.cases[i];
      if (ref::dot(c.model, pc.a.data(), pc.b.data(), pc.c) == ran.results[i])
        ++agree;
      else if (first_miss == SIZE_MAX)
        first_miss = i;
    }
    if (first_miss == SIZE_MAX) v.matching.push_back(&c);
    if (!v.nearest || agree > v.nearest_agree) {
      v.nearest = &c;
      v.nearest_agree = agree;
      v.nearest_first_miss = first_miss;
    }
  }
  return v;
}

std::string describe_values(const std::map<std::string, std::string>& values) {
  std::string s;
  for (const auto& [k, v] : values) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

std::string case_text(const Ran& ran, size_t i, uint32_t predicted) {
  const ProbeCase& c = ran.experiment.cases[i];
  return ran.experiment.name + " case " + std::to_string(i) + ": " + c.what + "; predicted " + hex(predicted) +
         ", oracle " + hex(ran.results[i]);
}

// The findings of one step: for each parameter the step decides, the values its matching candidates
// hold. One value: established; several: unobservable when every matching candidate gives the same bits
// on all of the step's cases (they do: they all match), written as the default. Returns nullopt and
// fills *stop when nothing matches.
std::optional<InstructionModel> decide(const std::vector<Candidate>& candidates, const Ran& ran,
                                       const std::vector<std::pair<std::string, std::string>>& parameter_defaults,
                                       std::vector<Finding>& findings, std::string* stop) {
  const Verdict v = judge(candidates, ran);
  const size_t n = ran.answered_cases();
  if (v.matching.empty()) {
    std::string detail = "no candidate reproduces all " + std::to_string(n) + " cases";
    if (v.nearest) {
      const ProbeCase& pc = ran.experiment.cases[v.nearest_first_miss];
      detail += "; nearest " + describe_values(v.nearest->values) + " agrees on " + std::to_string(v.nearest_agree) +
                "; first case it misses: " +
                case_text(ran, v.nearest_first_miss, ref::dot(v.nearest->model, pc.a.data(), pc.b.data(), pc.c));
    }
    for (const auto& [p, d] : parameter_defaults) findings.push_back({p, "?", ran.experiment.name, n, FindingStatus::inconsistent, detail});
    *stop = ran.experiment.name + ": " + detail;
    return std::nullopt;
  }
  const Candidate* chosen = v.matching.front();
  for (const auto& [param, fallback] : parameter_defaults) {
    std::vector<std::string> seen;
    for (const Candidate* c : v.matching) {
      const std::string& x = c->values.at(param);
      if (std::find(seen.begin(), seen.end(), x) == seen.end()) seen.push_back(x);
    }
    Finding f{param, seen.front(), ran.experiment.name, n, FindingStatus::established, ""};
    if (seen.size() > 1 && fallback.empty()) {
      // Values that differ in what they mean (two block lengths, two widths) yet fit every case: the
      // experiment could not tell them apart, and guessing would be a silent error.
      std::string all;
      for (const auto& x : seen) all += (all.empty() ? "" : ", ") + x;
      f.status = FindingStatus::ambiguous;
      f.value = "?";
      f.detail = "several values reproduce every case: " + all;
      findings.push_back(f);
      *stop = ran.experiment.name + ": " + param + ": " + f.detail;
      return std::nullopt;
    }
    if (seen.size() > 1) {
      // Values that give the same bits on every case of the experiment built to tell them apart: the
      // preferred one is written, and the final checks (random and fresh recordings) test the choice.
      f.status = FindingStatus::unobservable;
      std::string all;
      for (const auto& x : seen) all += (all.empty() ? "" : ", ") + x;
      f.detail = "these give the same bits on every case: " + all;
      f.value = std::find(seen.begin(), seen.end(), fallback) != seen.end() ? fallback : seen.front();
      f.alternatives = seen;
    }
    findings.push_back(f);
  }
  // The candidate holding the values written (defaults where unobservable).
  for (const Candidate* c : v.matching) {
    bool all = true;
    for (const auto& f : findings)
      if (c->values.count(f.parameter) && c->values.at(f.parameter) != f.value) all = false;
    if (all) chosen = c;
  }
  return chosen->model;
}

// The zero-product exponent's matching values as a class: "-133", or "none or <= -124".
void summarise_zero_exp(Finding& f, const std::vector<Candidate>& candidates, const Ran& ran) {
  const Verdict v = judge(candidates, ran);
  std::vector<int> ex;
  bool none = false;
  for (const Candidate* c : v.matching) {
    if (c->model.block.zero_product_exp == INT_MIN) none = true;
    else ex.push_back(c->model.block.zero_product_exp);
  }
  std::sort(ex.begin(), ex.end());
  if (ex.empty()) return;
  const bool contiguous = ex.back() - ex.front() + 1 == static_cast<int>(ex.size());
  if (none && contiguous && ex.front() <= -160) {
    f.value = "none";
    f.status = FindingStatus::unobservable;
    f.detail = "none, or any exponent <= " + std::to_string(ex.back()) +
               ": a zero product cannot raise the block's maximum exponent past the operands' smallest bits here";
  } else if (!none && ex.size() == 1) {
    f.value = std::to_string(ex.front());
    f.status = FindingStatus::established;
    f.detail.clear();
  } else {
    f.status = FindingStatus::ambiguous;
    f.detail = "several exponents reproduce every case: " + std::to_string(ex.front()) + " ... " + std::to_string(ex.back()) +
               (none ? " and none" : "");
  }
}

ref::BlockModel default_block(const ref::Instruction& in, int L, int F) {
  ref::BlockModel b;
  b.block_k = L;
  b.frac_bits = F;
  b.block_result = in.d == ref::FormatId::fp32 ? ref::FormatId::fp32 : in.d;
  b.rounding = in.d == ref::FormatId::fp32 ? ref::Rounding::toward_zero : ref::Rounding::nearest_even;
  return b;
}

// Flushes subnormal operands (a, b, c) to zero: the alternative a GPU without subnormal support would show.
ProbeCase flushed(const ProbeCase& pc, const ref::Instruction& in) {
  ProbeCase f = pc;
  const auto flush = [](ref::FormatId fmt, uint32_t& x) {
    const auto d = ref::decode(fmt, x);
    if (d.cls == ref::ValueClass::subnormal) x = ref::zero_bits(fmt, d.neg);
  };
  for (auto& x : f.a) flush(in.a, x);
  for (auto& x : f.b) flush(in.b, x);
  flush(in.c, f.c);
  return f;
}

Verification compare(const std::string& what, const InstructionModel& m, const record::InstructionRecording& r,
                     const std::vector<bool>& unanswered = {}) {
  Verification v{what, r.outputs(), 0, ""};
  std::vector<uint32_t> expect(r.d.size());
  ref::mma(m, static_cast<size_t>(r.tiles), r.a.data(), r.b.data(), r.c.data(), expect.data(),
           r.sa.empty() ? nullptr : r.sa.data(), r.sb.empty() ? nullptr : r.sb.data());
  const int w = ref::words_per_element(r.instr.d);
  for (size_t i = 0; i < r.outputs(); ++i) {
    if (!unanswered.empty() && unanswered[i]) {
      --v.outputs;
      ++v.unanswered;
      continue;
    }
    bool same = true;
    for (int j = 0; j < w; ++j) same &= expect[i * w + j] == r.d[i * w + j];
    if (same) continue;
    if (v.mismatches++ == 0) {
      const size_t t = i / (r.instr.m * r.instr.n), row = (i / r.instr.n) % r.instr.m, col = i % r.instr.n;
      v.first_mismatch = "tile " + std::to_string(t) + " D[" + std::to_string(row) + "][" + std::to_string(col) +
                         "]: expected " + hex(expect[i * w]) + ", got " + hex(r.d[i * w]);
    }
  }
  return v;
}

void append_tiles(record::InstructionRecording& all, const record::InstructionRecording& part, const std::string& label) {
  if (all.tiles == 0) all.instr = part.instr;
  record::FamilyRange f{gen::Family::realistic, all.tiles, all.tiles + part.tiles};
  f.label = label;
  all.families.push_back(f);
  all.tiles += part.tiles;
  for (auto [to, from] : {std::pair{&all.a, &part.a}, {&all.b, &part.b}, {&all.c, &part.c}, {&all.d, &part.d}})
    to->insert(to->end(), from->begin(), from->end());
}

// Sets one parameter of a block model from its profile-file word.
void set_parameter(InstructionModel& m, const std::string& param, const std::string& value) {
  using namespace profiles;
  if (param == "result") m.block.block_result = *value_of(block_result_words(), value);
  else if (param == "rounding") m.block.rounding = *value_of(rounding_words(), value);
  else if (param == "overflow") m.block.rz_overflow_to_inf = *value_of(overflow_words(), value);
  else if (param == "truncation") m.block.truncation = *value_of(truncation_words(), value);
  else if (param == "tf32-input") m.block.tf32_input = *value_of(rounding_words(), value);
}

// When the model misses outputs of the random tiles and some parameter was unobservable in its
// experiment (the preferred value written), the random tiles decide between the values that fit: every
// combination of the alternatives is tried on them, and the one that reproduces all of them is kept
// (its findings then say "random"). The fresh recording is checked again with it.
bool resolve_by_random_tiles(InstructionProbe& out, const record::InstructionRecording& own, const std::vector<bool>& unanswered) {
  size_t misses = 0;
  for (const auto& c : out.checks) misses += c.mismatches;
  if (!misses || !out.model || out.model->lowering || out.model->fma_chain) return false;
  std::vector<Finding*> open;
  for (auto& f : out.findings)
    if (f.status == FindingStatus::unobservable && !f.alternatives.empty()) open.push_back(&f);
  if (open.empty()) return false;
  size_t combos = 1;
  for (const Finding* f : open) combos *= f->alternatives.size();
  std::vector<std::vector<std::string>> fitting;
  for (size_t i = 0; i < combos; ++i) {
    InstructionModel m = *out.model;
    std::vector<std::string> values;
    for (size_t j = 0, rest = i; j < open.size(); rest /= open[j]->alternatives.size(), ++j) {
      values.push_back(open[j]->alternatives[rest % open[j]->alternatives.size()]);
      set_parameter(m, open[j]->parameter, values.back());
    }
    if (compare("", m, own, unanswered).mismatches == 0) fitting.push_back(values);
  }
  if (fitting.empty()) return false;  // the checks keep their misses and say so
  // A parameter on which every fitting combination agrees is decided by the random tiles; one on which
  // they differ stays unobservable, with its preferred value where that fits.
  std::vector<std::string> chosen = fitting.front();
  for (const auto& combo : fitting) {
    bool preferred = true;
    for (size_t j = 0; j < open.size(); ++j) {
      bool agree = true;
      for (const auto& other : fitting) agree &= other[j] == combo[j];
      if (!agree && combo[j] != open[j]->value) preferred = false;
    }
    if (preferred) chosen = combo;
  }
  for (size_t j = 0; j < open.size(); ++j) {
    bool agree = true;
    for (const auto& other : fitting) agree &= other[j] == fitting[0][j];
    if (agree) {
      open[j]->detail = "the " + open[j]->experiment + " experiment could not tell " + std::to_string(open[j]->alternatives.size()) +
                        " values apart; only this one reproduces the random tiles";
      open[j]->status = FindingStatus::established;
      open[j]->experiment = "random";
      open[j]->inputs = own.outputs();
    }
    open[j]->value = chosen[j];
    set_parameter(*out.model, open[j]->parameter, chosen[j]);
  }
  return true;
}

}  // namespace

std::string_view status_name(FindingStatus s) {
  switch (s) {
    case FindingStatus::established: return "established";
    case FindingStatus::unobservable: return "unobservable";
    case FindingStatus::ambiguous: return "ambiguous";
    case FindingStatus::inconsistent: return "inconsistent";
    case FindingStatus::checked: return "checked";
  }
  return "?";
}

bool InstructionProbe::reproduced() const {
  if (!model || checks.empty()) return false;
  for (const auto& c : checks)
    if (c.mismatches) return false;
  for (const auto& f : findings)
    if (f.status == FindingStatus::ambiguous || f.status == FindingStatus::inconsistent) return false;
  return true;
}

Prober::Prober(Oracle& oracle, ProbeOptions options) : oracle_(oracle), options_(std::move(options)) {
  if (options_.fresh_seed == 0) options_.fresh_seed = options_.seed * 1000003 + 7;
}

const ref::InstructionModel* Prober::inferred(const std::string& instr) {
  if (std::find(in_progress_.begin(), in_progress_.end(), instr) != in_progress_.end()) return nullptr;
  const InstructionProbe& p = probe(instr);
  return p.model && p.reproduced() ? &*p.model : nullptr;
}

const InstructionProbe& Prober::probe(const std::string& name) {
  if (auto it = done_.find(name); it != done_.end()) return *it->second;
  in_progress_.push_back(name);
  const auto started = std::chrono::steady_clock::now();
  auto result = std::make_unique<InstructionProbe>();
  InstructionProbe& out = *result;
  out.instr = name;
  const auto say = [&](const std::string& s) {
    if (options_.progress) options_.progress(name + ": " + s);
  };
  std::string why;
  const auto parsed = ref::parse_instruction(name, &why);
  if (!parsed) throw std::invalid_argument(name + ": " + why);
  if (!oracle_.has(name, &why)) throw std::invalid_argument(oracle_.describe() + " cannot run " + name + ": " + why);
  const ref::Instruction in = *parsed;
  if (in.scale) throw std::invalid_argument(name + ": block-scaled instructions are not probed yet (their scale groups need experiments of their own)");

  std::deque<Ran> ran_all;  // references to its elements stay valid as it grows
  const auto run = [&](Experiment e) -> const Ran& {
    say(e.name + " (" + std::to_string(e.cases.size()) + " cases)");
    Ran r{std::move(e), {}, {}};
    r.tiles = pack(in, r.experiment.cases);
    r.tiles.d = oracle_.run(r.tiles);
    if (const auto* u = oracle_.unanswered()) r.unanswered = *u;
    r.results = case_results(r.tiles, r.experiment.cases.size(), r.unanswered, &r.case_missing);
    ran_all.push_back(std::move(r));
    return ran_all.back();
  };
  std::vector<bool> fresh_unanswered;  // the fresh recording's outputs the oracle could not give
  const auto finish = [&]() -> const InstructionProbe& {
    for (const Ran& r : ran_all) {
      append_tiles(out.probe_tiles, r.tiles, "probe-" + r.experiment.name);
      for (bool u : r.unanswered) out.unanswered_outputs += u;
    }
    for (bool u : fresh_unanswered) out.unanswered_outputs += u;
    for (const Ran& r : ran_all) {
      std::vector<bool> u = r.unanswered.empty() ? std::vector<bool>(r.tiles.outputs(), false) : r.unanswered;
      out.probe_unanswered.insert(out.probe_unanswered.end(), u.begin(), u.end());
    }
    out.fresh_unanswered = fresh_unanswered;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    in_progress_.erase(std::find(in_progress_.begin(), in_progress_.end(), name));
    auto& slot = done_[name];
    slot = std::move(result);
    return *slot;
  };
  // Random tiles of the recorder's families (the probe's own) and the fresh recording (independent).
  const auto random_tiles = [&](uint64_t seed, int per_family, std::vector<bool>* unanswered) {
    record::InstructionRecording r = record::plan_recording(in, seed, per_family);
    r.d = oracle_.run(r);
    if (const auto* u = oracle_.unanswered()) *unanswered = *u;
    return r;
  };
  // The random tiles join the probe's fixture (family probe-random); the fresh recording stays apart.
  const auto check_all = [&]() {
    out.checks.clear();
    for (const Ran& r : ran_all)
      out.checks.push_back(compare(r.experiment.name == "random"
                                       ? "random tiles of the probe (seed " + std::to_string(options_.seed) + ")"
                                       : "probe-" + r.experiment.name + " (all outputs)",
                                   *out.model, r.tiles, r.unanswered));
    out.checks.push_back(compare("fresh recording (seed " + std::to_string(options_.fresh_seed) + ")", *out.model, out.fresh,
                                 fresh_unanswered));
  };
  const auto verify = [&]() {
    say("verifying");
    Ran r{Experiment{"random", "the recorder's families", {}}, {}, {}};
    r.tiles = random_tiles(options_.seed, 4, &r.unanswered);
    ran_all.push_back(std::move(r));
    const int fresh_per = options_.fresh_tiles_per_family ? options_.fresh_tiles_per_family : record::default_tiles_per_family(in);
    out.fresh = random_tiles(options_.fresh_seed, fresh_per, &fresh_unanswered);
    check_all();
  };

  try {
  // fp64: DMMA has no block; the candidate is the IEEE fma chain, checked on the random families.
  if (in.a == ref::FormatId::fp64) {
    out.model = InstructionModel{oracle_.arch(), in, {}, std::nullopt, true};
    verify();
    const auto& last = out.checks;
    size_t n = 0, bad = 0;
    for (const auto& c : last) n += c.outputs, bad += c.mismatches;
    out.findings.push_back({"form", "fma-chain", "random", n, bad ? FindingStatus::inconsistent : FindingStatus::established,
                            bad ? "the IEEE binary64 fma chain in k order misses " + std::to_string(bad) + " outputs" : ""});
    if (bad) out.stopped = "fp64: not an fma chain in k order";
    return finish();
  }

  const ValueMaker v(in);
  const int S = v.spread();
  const int F_probe = std::min(S - 1, 60);  // the widest F the structure experiment can tell apart
  // 1. Structure: native blocks of L, or a lowering onto another instruction.
  std::vector<Candidate> structures;
  std::vector<int> lengths;
  for (int L = 1; L < in.k; L *= 2) lengths.push_back(L);
  lengths.push_back(in.k);
  for (int L : lengths)
    structures.push_back({{{"form", "block"}, {"k", std::to_string(L)}, {"lowered", "-"}},
                          InstructionModel{oracle_.arch(), in, default_block(in, L, F_probe), std::nullopt, false}});
  // A lowering runs the operands exactly as another instruction's: the first 16-bit format that holds
  // every value of A and B (two vias with one block model would give the same bits: unobservable).
  const auto holds = [](ref::FormatId via, ref::FormatId f) {
    return via != f && ref::spec(via).man_bits >= ref::spec(f).man_bits && ref::spec(via).exp_bits >= ref::spec(f).exp_bits;
  };
  std::vector<ref::FormatId> via_formats;
  for (ref::FormatId f : {ref::FormatId::fp16, ref::FormatId::bf16})
    if (via_formats.empty() && holds(f, in.a) && holds(f, in.b)) via_formats.push_back(f);
  for (ref::FormatId via_ab : via_formats) {
    for (int k : {8, 16, 32}) {
      ref::Instruction via = in;
      via.a = via.b = via_ab;
      via.k = k;
      via.kind.clear();
      via.name = ref::spell(via);
      if (via.name == name || !oracle_.has(via.name, nullptr) || in.k % k) continue;
      const InstructionModel* vm = inferred(via.name);
      if (!vm) continue;
      for (int parts : {1, 2, 4})
        for (int run_len : {1, 2, 4, 8}) {
          if (parts == 1 && run_len > 1) continue;
          InstructionModel m{oracle_.arch(), in, {}, ref::Lowering{via.name, parts, run_len, vm}, false};
          structures.push_back({{{"form", "lowered"}, {"k", "-"},
                                 {"lowered", via.name + " parts=" + std::to_string(parts) + " run=" + std::to_string(run_len)}},
                                m});
        }
    }
  }
  std::string stop;
  const Ran& st = run(structure_cases(v));
  auto model = decide(structures, st, {{"form", ""}, {"k", ""}, {"lowered", ""}}, out.findings, &stop);
  if (!model) {
    out.stopped = stop + "; the formats give the probe's terms only " + std::to_string(S) +
                  " binades (2^" + std::to_string(v.lo()) + " ... 2^" + std::to_string(v.hi()) +
                  "), and swamping cannot separate blocks that keep that many fraction bits or more";
    return finish();
  }
  if (!model->lowering && model->block.block_k == in.k) {
    Finding& k = *std::find_if(out.findings.begin(), out.findings.end(), [](const Finding& f) { return f.parameter == "k"; });
    k.status = FindingStatus::unobservable;
    k.detail = "the whole K is one block: every L >= " + std::to_string(in.k) + " gives the same bits for this instruction";
  }
  // Where c enters follows from the form: the first block's addend, or an IEEE add after a lowering.
  out.findings.push_back({"c-entry", model->lowering ? "after (IEEE add, nearest-even)" : "first block's addend", "structure",
                          st.experiment.cases.size(), FindingStatus::established, ""});
  if (!model->lowering) {
    const int L = model->block.block_k;
    // 2. Fraction bits and truncation.
    std::vector<Candidate> fr;
    for (int F = 0; F <= F_probe; ++F)
      for (ref::Truncation t : {ref::Truncation::toward_zero, ref::Truncation::floor}) {
        InstructionModel m = *model;
        m.block.frac_bits = F;
        m.block.truncation = t;
        fr.push_back({{{"frac-bits", std::to_string(F)}, {"truncation", std::string(profiles::word_of(profiles::truncation_words(), t))}}, m});
      }
    model = decide(fr, run(fraction_cases(v, L)), {{"frac-bits", ""}, {"truncation", "toward-zero"}}, out.findings, &stop);
    if (!model) {
      out.stopped = stop;
      return finish();
    }
    // 3. The block result: format, rounding, overflow.
    std::vector<Candidate> rs;
    for (const auto& fmt : profiles::block_result_words())
      for (const auto& rnd : profiles::rounding_words())
        for (const auto& ov : profiles::overflow_words()) {
          InstructionModel m = *model;
          m.block.block_result = fmt.value;
          m.block.rounding = rnd.value;
          m.block.rz_overflow_to_inf = ov.value;
          rs.push_back({{{"result", std::string(fmt.text)}, {"rounding", std::string(rnd.text)}, {"overflow", std::string(ov.text)}}, m});
        }
    const ref::BlockModel pref = default_block(in, L, 0);
    model = decide(rs, run(result_cases(v, L, model->block.frac_bits)),
                   {{"result", std::string(profiles::word_of(profiles::block_result_words(), pref.block_result))},
                    {"rounding", std::string(profiles::word_of(profiles::rounding_words(), pref.rounding))},
                    {"overflow", "inf"}},
                   out.findings, &stop);
    if (!model) {
      out.stopped = stop;
      return finish();
    }
    // 4. The exponent of a zero product.
    std::vector<Candidate> zs;
    for (int e = -160; e <= 0; ++e) {
      InstructionModel m = *model;
      m.block.zero_product_exp = e;
      zs.push_back({{{"zero-product-exp", std::to_string(e)}}, m});
    }
    {
      InstructionModel m = *model;
      m.block.zero_product_exp = INT_MIN;
      zs.push_back({{{"zero-product-exp", "none"}}, m});
    }
    const Ran& zr = run(zero_exp_cases(v));
    model = decide(zs, zr, {{"zero-product-exp", "none"}}, out.findings, &stop);
    if (!model) {
      out.stopped = stop;
      return finish();
    }
    summarise_zero_exp(out.findings.back(), zs, zr);
    if (out.findings.back().status == FindingStatus::ambiguous) {
      out.stopped = "zero-product-exp: " + out.findings.back().detail;
      return finish();
    }
    model->block.zero_product_exp = out.findings.back().value == "none" ? INT_MIN : std::stoi(out.findings.back().value);
    // 5. tf32 operands: how the low 13 bits are dropped.
    if (in.a == ref::FormatId::tf32) {
      std::vector<Candidate> ts;
      for (const auto& rnd : profiles::rounding_words()) {
        InstructionModel m = *model;
        m.block.tf32_input = rnd.value;
        ts.push_back({{{"tf32-input", std::string(rnd.text)}}, m});
      }
      model = decide(ts, run(tf32_cases(v)), {{"tf32-input", ""}}, out.findings, &stop);
      if (!model) {
        out.stopped = stop;
        return finish();
      }
    }
  }
  // 6. Special values and subnormals: the sign of a zero result decided, the rest checked against the
  // model's fixed rules.
  {
    const Ran& sp = run(specials_cases(v));
    if (!model->lowering) {
      std::vector<Candidate> zs;
      for (const auto& w : profiles::zero_sign_words()) {
        InstructionModel m = *model;
        m.block.zero_result_positive = w.value;
        zs.push_back({{{"zero-sign", std::string(w.text)}}, m});
      }
      // Decided on the zero-sign cases alone: the other specials are checked below, whatever this says.
      Ran zero_cases{Experiment{"specials", sp.experiment.isolates, {}}, {}, {}};
      for (size_t i = 0; i < sp.experiment.cases.size(); ++i) {
        if (!sp.answered(i)) continue;
        bool all_zero = true;
        const ProbeCase& pc = sp.experiment.cases[i];
        for (int k = 0; k < in.k; ++k)
          all_zero &= ref::decode(in.a, pc.a[k]).cls == ref::ValueClass::zero || ref::decode(in.b, pc.b[k]).cls == ref::ValueClass::zero;
        if (all_zero && ref::decode(in.c, pc.c).cls == ref::ValueClass::zero) {
          zero_cases.experiment.cases.push_back(pc);
          zero_cases.results.push_back(sp.results[i]);
        }
      }
      if (auto m = decide(zs, zero_cases, {{"zero-sign", "ieee"}}, out.findings, &stop)) model = m;
    }
    size_t agree = 0, flushed_agree = 0, subnormal_cases = 0;
    std::string first;
    for (size_t i = 0; i < sp.experiment.cases.size(); ++i) {
      if (!sp.answered(i)) continue;
      const ProbeCase& pc = sp.experiment.cases[i];
      const uint32_t want = ref::dot(*model, pc.a.data(), pc.b.data(), pc.c);
      if (want == sp.results[i]) ++agree;
      else first += (first.empty() ? "" : "; ") + case_text(sp, i, want);
      const ProbeCase f = flushed(pc, in);
      if (f.a != pc.a || f.b != pc.b || f.c != pc.c) {
        ++subnormal_cases;
        if (ref::dot(*model, f.a.data(), f.b.data(), f.c) == sp.results[i]) ++flushed_agree;
      }
    }
    const size_t n = sp.answered_cases();
    if (n == 0) {  // a recorded oracle without this experiment's outputs: nothing checked, and said so
      for (const char* what : {"nan-inf-zero", "subnormals"})
        out.findings.push_back({what, "not checked", "specials", 0, FindingStatus::unobservable,
                                "the oracle gave none of the specials' outputs (not in the recordings)"});
      out.model = model;
      verify();
      return finish();
    }
    out.findings.push_back({"nan-inf-zero", agree == n ? "the model's rules" : "differs", "specials", n,
                            agree == n ? FindingStatus::checked : FindingStatus::inconsistent, first});
    out.findings.push_back({"subnormals", agree == n ? "kept (not flushed)" : flushed_agree == subnormal_cases ? "flushed" : "?",
                            "specials", subnormal_cases,
                            agree == n ? FindingStatus::checked : FindingStatus::inconsistent,
                            agree == n ? "" : "the model keeps subnormal operands; flushing them reproduces " +
                                                  std::to_string(flushed_agree) + " of " + std::to_string(subnormal_cases)});
    if (agree != n) {
      // The model's special-value rules are fixed: it cannot take the GPU's. Say which cases differ, and
      // still run the checks, so that the report shows what else agrees.
      out.stopped = "specials: " + std::to_string(n - agree) + " of " + std::to_string(n) + " cases differ from the model's rules: " + first;
      out.model = model;
      verify();
      return finish();
    }
  }
  out.model = model;
  verify();
  if (resolve_by_random_tiles(out, ran_all.back().tiles, ran_all.back().unanswered)) check_all();
  return finish();
  } catch (const std::runtime_error& e) {
    // The oracle could not answer (a CUDA error, an output the recordings lack): the instruction stops.
    out.stopped = std::string("the oracle failed: ") + e.what();
    return finish();
  }
}

}  // namespace mmaemu::probe
