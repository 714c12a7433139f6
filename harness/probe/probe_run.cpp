#include "harness/probe/probe_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/probe/infer.hpp"
#include "harness/probe/library_probe.hpp"
#include "harness/probe/probe_report.hpp"
#include "harness/profiles/profile_file.hpp"
#include "harness/record/fixture_writer.hpp"
#include "harness/record/output_summary.hpp"

namespace mmaemu::probe {
namespace {

namespace fs = std::filesystem;

// The parameters a profile file holds, compared one by one with the built-in profile.
const std::vector<std::string>& compared_parameters() {
  static const std::vector<std::string> p = {"form",   "k",        "lowered",  "frac-bits",        "truncation",
                                             "result", "rounding", "overflow", "zero-product-exp", "zero-sign",
                                             "tf32-input"};
  return p;
}

std::unique_ptr<Oracle> open_oracle(const ProbeRunOptions& o) {
  if (o.oracle.rfind("recorded:", 0) == 0) {
    std::vector<fs::path> sets;
    std::string list = o.oracle.substr(9);
    for (size_t at = 0; at <= list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      if (comma > at) sets.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
    return recorded_oracle(sets);
  }
  if (o.oracle == "reference") {
    const auto arch = ref::parse_arch(o.arch);
    if (!arch) throw InputError("--arch", "the reference oracle needs --arch (sm70 ... sm120), got '" + o.arch + "'");
    return reference_oracle(*arch);
  }
  std::string why;
  auto g = gpu_oracle(o.device, &why);
  if (!g) throw InputError("", "mmaemu probe needs a GPU: " + why);
  return g;
}

std::vector<std::string> instructions_to_probe(const ProbeRunOptions& o, const Oracle& oracle) {
  if (!o.instructions.empty()) {
    for (const auto& name : o.instructions) {
      std::string why;
      if (!oracle.has(name, &why)) throw InputError("--instr " + name, oracle.describe() + " cannot run it: " + why);
    }
    return o.instructions;
  }
  std::vector<std::string> all;
  if (o.oracle == "reference") {
    for (const auto& m : ref::instructions_of(oracle.arch()))
      if (!ref::is_wide_n_variant(m.instr) && !m.instr.scale) all.push_back(m.instr.name);
  } else {
    for (const auto& name : record::recordable_instructions())
      if (oracle.has(name, nullptr)) all.push_back(name);
  }
  if (all.empty()) throw InputError("", oracle.describe() + " runs none of the instructions mmaemu can probe");
  return all;
}

Comparison compare_with_builtin(const InstructionProbe& p, ref::Arch arch) {
  Comparison c{&p, std::nullopt, "", std::nullopt};
  for (const auto& m : ref::builtin_instructions_of(arch))
    if (m.instr.name == p.instr) c.builtin = m;
  if (!c.builtin || !p.model) return c;
  for (const auto& param : compared_parameters())
    for (const auto& f : p.findings)
      if (f.parameter == param && f.value != builtin_value(*c.builtin, param))
        c.differs += (c.differs.empty() ? "" : ", ") + param;
  // Whether the built-in model gives the probe's bits anyway (an unobservable parameter differing).
  bool same = true;
  for (const auto& [r, unanswered] : {std::pair{&p.probe_tiles, &p.probe_unanswered}, {&p.fresh, &p.fresh_unanswered}}) {
    std::vector<uint32_t> d(r->d.size());
    ref::mma(*c.builtin, static_cast<size_t>(r->tiles), r->a.data(), r->b.data(), r->c.data(), d.data());
    const size_t w = ref::words_per_element(r->instr.d);
    for (size_t i = 0; i < r->outputs(); ++i)
      if (unanswered->empty() || !(*unanswered)[i])
        for (size_t j = 0; j < w; ++j) same &= d[i * w + j] == r->d[i * w + j];
  }
  c.same_bits = same;
  return c;
}

std::string evidence_comment(const InstructionProbe& p) {
  size_t probe_outputs = 0, fresh = 0;
  for (const auto& c : p.checks) (c.what.rfind("fresh", 0) == 0 ? fresh : probe_outputs) += c.outputs;
  std::string s = "probed: " + std::to_string(probe_outputs) + " probe outputs and " + std::to_string(fresh) +
                  " of a fresh random recording reproduced";
  for (const auto& f : p.findings)
    if (f.status == FindingStatus::unobservable) s += "\n" + f.parameter + " unobservable here: " + f.detail;
  return s;
}

record::FixtureSet fixture_set(const std::string& name, ref::Arch arch, const Oracle& oracle, const std::string& command,
                               const std::vector<const record::InstructionRecording*>& recs, const std::string& checks) {
  record::FixtureSet set;
  set.name = name;
  set.arch = std::string(ref::arch_name(arch));
  set.provenance = oracle.provenance(command);
  for (const auto* r : recs) {
    set.recordings.push_back(*r);
    set.summaries.push_back(record::describe(record::summarize_outputs(*r), storage_bytes(r->instr.d)));
  }
  set.checks = checks;
  set.log_text = "mmaemu probe: " + command + "\noracle: " + oracle.describe() + "\n";
  return set;
}

std::string tier_file() {
  return "# Replays what `mmaemu probe` recorded through the reference under the inferred profile:\n"
         "#   mmaemu --profile profile.yaml run T2-probe.yaml\n"
         "tier: T2\n"
         "description: The probe's own inputs and a fresh random recording, replayed under the inferred profile.\n"
         "suites:\n"
         "  - name: probe-recordings\n    kind: fixture-replay\n    labels: [T2, cpu]\n"
         "    fixtures: fixtures/probe\n    backend: reference\n"
         "  - name: fresh-recording\n    kind: fixture-replay\n    labels: [T2, cpu]\n"
         "    fixtures: fixtures/fresh\n    backend: reference\n";
}

}  // namespace

int run_library_probe(const ProbeRunOptions& o) {
  std::vector<LibraryKernel> kernels;
  for (const auto& k : o.library_kernels) {
    const auto parsed = parse_library_kernel(k);
    if (!parsed) throw InputError("--cublaslt " + k, "a library kernel is TYPE:ALGO[:CUSTOM], e.g. bf16:66 or fp32:55:1");
    kernels.push_back(*parsed);
  }
  std::unique_ptr<LibraryOracle> oracle;
  if (o.oracle == "reference") {
    oracle = reference_library_oracle();
  } else {
    std::string why;
    oracle = live_library_oracle(o.device, &why);
    if (!oracle) throw InputError("", "mmaemu probe --cublaslt needs a GPU: " + why);
  }
  const bool tty = ::isatty(2);
  std::vector<LibraryProbe> probes;
  bool all = true;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const auto progress = [&](const std::string& line) {
      if (tty) std::cerr << "\r\033[K[" << i << "/" << kernels.size() << "] " << line << std::flush;
    };
    probes.push_back(probe_library_kernel(*oracle, kernels[i], o.seed, progress));
    all &= probes.back().reproduced();
  }
  if (tty) std::cerr << "\r\033[K";
  fs::create_directories(o.out);
  const std::string md = library_report_markdown(oracle->describe(), probes);
  write_file_atomic(o.out / "cublaslt.md", md);
  // The verdict: the report's first table.
  std::cout << md.substr(0, md.find("\n## ")) << "\nreport in " << (o.out / "cublaslt.md").string() << "\n";
  return all ? 0 : 1;
}

int run_probe(const ProbeRunOptions& o) {
  if (!o.library_kernels.empty()) return run_library_probe(o);
  auto oracle = open_oracle(o);
  const auto wanted = instructions_to_probe(o, *oracle);
  const bool tty = ::isatty(2);
  ProbeOptions po;
  po.seed = o.seed;
  po.fresh_seed = o.fresh_seed;
  po.fresh_tiles_per_family = o.fresh_tiles_per_family;
  size_t done = 0;
  if (tty)
    po.progress = [&](const std::string& line) {
      std::cerr << "\r\033[K[" << done << "/" << wanted.size() << "] " << line << std::flush;
    };
  Prober prober(*oracle, po);
  std::vector<const InstructionProbe*> probes;
  const auto add = [&](const InstructionProbe& p) {
    if (std::find(probes.begin(), probes.end(), &p) == probes.end()) probes.push_back(&p);
  };
  for (const auto& name : wanted) {
    const InstructionProbe& p = prober.probe(name);
    // An instruction lowered onto another needs that one in the profile too (probed on the way).
    if (p.model && p.model->lowering) add(prober.probe(p.model->lowering->via));
    add(p);
    ++done;
  }
  if (tty) std::cerr << "\r\033[K";

  std::vector<Comparison> rows;
  profiles::ProfileFile profile;
  profile.name = "probed: " + oracle->describe();
  profile.arch = oracle->arch();
  std::vector<std::string> comments;
  std::vector<const record::InstructionRecording*> probe_recs, fresh_recs;
  bool all_reproduced = true;
  for (const InstructionProbe* p : probes) {
    rows.push_back(compare_with_builtin(*p, oracle->arch()));
    all_reproduced &= p->reproduced();
    // Tiles with outputs the oracle could not give hold no D to record: a replay writes no fixtures.
    if (p->probe_tiles.tiles && !p->unanswered_outputs) probe_recs.push_back(&p->probe_tiles);
    if (p->fresh.tiles && !p->unanswered_outputs) fresh_recs.push_back(&p->fresh);
    if (!p->reproduced()) continue;
    profile.instructions.push_back(*p->model);
    comments.push_back(evidence_comment(*p));
  }
  fs::create_directories(o.out);
  if (!profile.instructions.empty()) write_file_atomic(o.out / "profile.yaml", profiles::profile_yaml(profile, comments));
  if (!probe_recs.empty())
  record::write_fixture_set(o.out / "fixtures" / "probe",
                            fixture_set("probe", oracle->arch(), *oracle, o.command_line, probe_recs,
                                        "The inputs of `mmaemu probe`'s experiments (families probe-*) and random tiles "
                                        "of the recorder's families, with the oracle's D; each batch ran twice with "
                                        "different poison in D and gave the same bits."));
  if (!fresh_recs.empty())
    record::write_fixture_set(o.out / "fixtures" / "fresh",
                              fixture_set("fresh", oracle->arch(), *oracle, o.command_line, fresh_recs,
                                          "A fresh random recording (the recorder's families, a seed the probe did "
                                          "not use), for checking the inferred profile on inputs it was not fitted to."));
  write_file_atomic(o.out / "T2-probe.yaml", tier_file());
  write_file_atomic(o.out / "report.md", report_markdown(oracle->describe(), o.command_line, rows));
  write_file_atomic(o.out / "report.json", report_json(oracle->describe(), o.command_line, rows));
  // The verdict: one short table.
  std::cout << "| instruction | form | L | F | probe + fresh outputs | vs built-in " << ref::arch_name(oracle->arch()) << " |\n|---|---|--:|--:|--:|---|\n";
  for (const auto& c : rows) {
    const auto v = [&](const char* param) {
      for (const auto& f : c.probe->findings)
        if (f.parameter == param) return f.value;
      return std::string();
    };
    size_t n = 0, bad = 0;
    for (const auto& chk : c.probe->checks) n += chk.outputs, bad += chk.mismatches;
    std::cout << "| " << c.probe->instr << " | " << v("form") << " | " << v("k") << " | " << v("frac-bits") << " | "
              << (n - bad) << " / " << n << " | "
              << (!c.probe->reproduced() ? "not established: " + c.probe->stopped
                  : !c.builtin           ? std::string("new")
                  : c.differs.empty()    ? std::string("equal")
                  : c.same_bits.value_or(false) ? "equal in effect (" + c.differs + " unobservable)"
                                                : "differs: " + c.differs)
              << " |\n";
  }
  std::cout << "profile, recordings and report in " << o.out.string() << "\n";
  return all_reproduced ? 0 : 1;
}

}  // namespace mmaemu::probe
