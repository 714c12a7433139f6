#include "bench/t6/t6_spec.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "harness/core/errors.hpp"
#include "kernels/backend_names.hpp"
#include "harness/core/yaml_schema.hpp"
#include "bench/gemm_inputs.hpp"

namespace mmaemu::t6 {
namespace {

namespace fs = std::filesystem;

const Schema& tier_schema() {
  static const Schema s = {
      required_key("tier", ValueType::string),
      optional_key("description", ValueType::string),
      optional_key("reference", ValueType::mapping),
      optional_key("harness", ValueType::mapping),
      optional_key("gemm", ValueType::mapping),
      optional_key("mmasim", ValueType::mapping),
      optional_key("process", ValueType::mapping),
      optional_key("model", ValueType::mapping),
      optional_key("library", ValueType::mapping),
      optional_key("baseline", ValueType::mapping),
      optional_key("targets", ValueType::mapping),
      optional_key("quick", ValueType::mapping),
  };
  return s;
}

// The quick form: sections of the same schema that stand for the whole set under --quick.
const Schema& quick_schema() {
  static const Schema s = {
      optional_key("reference", ValueType::mapping),
      optional_key("harness", ValueType::mapping),
      optional_key("gemm", ValueType::mapping),
      optional_key("mmasim", ValueType::mapping),
      optional_key("process", ValueType::mapping),
      optional_key("model", ValueType::mapping),
      optional_key("library", ValueType::mapping),
  };
  return s;
}

const Schema& reference_schema() {
  static const Schema s = {
      required_key("profiles", ValueType::string_list), required_key("formats", ValueType::string_list),
      optional_key("threads", ValueType::string_list), optional_key("batch", ValueType::integer),
      optional_key("min_time_ms", ValueType::integer),  optional_key("repetitions", ValueType::integer),
      optional_key("seed", ValueType::integer),
  };
  return s;
}

const Schema& harness_schema() {
  static const Schema s = {
      required_key("suites", ValueType::sequence),
      optional_key("repetitions", ValueType::integer),
      optional_key("timeout_seconds", ValueType::integer),
  };
  return s;
}

const Schema& harness_suite_schema() {
  static const Schema s = {
      required_key("tier", ValueType::file).described_as("tier file"),
      required_key("suite", ValueType::string),
  };
  return s;
}

const Schema& gemm_schema() {
  static const Schema s = {
      required_key("arch", ValueType::string),
      optional_key("family", ValueType::string).one_of({"mma", "wgmma"}),
      required_key("formats", ValueType::string_list),
      required_key("shapes", ValueType::string_list),
      required_key("backends", ValueType::sequence),
      optional_key("warmup", ValueType::integer),
      optional_key("samples", ValueType::integer),
      optional_key("seed", ValueType::integer),
      optional_key("native", ValueType::boolean),
  };
  return s;
}

const Schema& gemm_backend_schema() {
  static const Schema s = {
      required_key("name", ValueType::string),
      optional_key("max_case_seconds", ValueType::integer),
      optional_key("n", ValueType::integer),
  };
  return s;
}

// The mmasim and process sections: instruction tiles beside MMA-Sim (in process, and as whole programs).
const Schema& tiles_schema() {
  static const Schema s = {
      required_key("arch", ValueType::string),
      required_key("instructions", ValueType::string_list),
      required_key("script", ValueType::file).described_as("MMA-Sim timing script"),
      optional_key("tiles", ValueType::integer),
      optional_key("repetitions", ValueType::integer),
      optional_key("python", ValueType::string),
      optional_key("seed", ValueType::integer),
  };
  return s;
}

const Schema& model_schema() {
  static const Schema s = {
      required_key("models", ValueType::string_list),
      required_key("script", ValueType::file).described_as("model timing script"),
      optional_key("repetitions", ValueType::integer),
      optional_key("python", ValueType::string),
  };
  return s;
}

const Schema& library_schema() {
  static const Schema s = {
      required_key("formats", ValueType::string_list),
      required_key("shapes", ValueType::string_list),
      required_key("engines", ValueType::string_list),
      optional_key("split_k", ValueType::string_list),
      optional_key("algorithm", ValueType::integer),
      optional_key("repetitions", ValueType::integer),
      optional_key("native", ValueType::boolean),
      optional_key("seed", ValueType::integer),
      optional_key("cpu_max_macs", ValueType::integer),
      optional_key("cpu_threads", ValueType::string_list),
      optional_key("lanes_max_macs", ValueType::integer),
      optional_key("sgemm_script", ValueType::file),
      optional_key("python", ValueType::string),
  };
  return s;
}

const Schema& baseline_schema() {
  static const Schema s = {optional_key("min_drop_percent", ValueType::integer)};
  return s;
}

// A list of thread counts: each a count from 1, or "all" (0: every hardware thread).
std::vector<int> thread_counts(const SchemaValue& t, const std::string& key) {
  std::vector<int> out;
  for (const std::string& s : t.list) {
    if (s == "all") {
      out.push_back(0);
      continue;
    }
    const bool digits = !s.empty() && s.size() < 5 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoi(s) < 1) throw InputError(t.where, "'" + key + "' holds '" + s + "'; allowed: a count from 1, or all");
    out.push_back(std::stoi(s));
  }
  if (out.empty()) throw InputError(t.where, "no thread count given");
  return out;
}

// An integer key within [lo, hi], or `fallback` when absent.
uint64_t number(const SchemaValues& v, const std::string& key, uint64_t lo, uint64_t hi, uint64_t fallback) {
  const auto it = v.find(key);
  if (it == v.end()) return fallback;
  if (it->second.number < lo || it->second.number > hi)
    throw InputError(it->second.where, "'" + key + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  return it->second.number;
}

std::vector<ref::FormatId> formats(const SchemaValue& v, bool allow_all) {
  static const std::vector<ref::FormatId> all{ref::FormatId::fp16, ref::FormatId::bf16, ref::FormatId::tf32,
                                              ref::FormatId::e4m3, ref::FormatId::e5m2};
  if (allow_all && v.list.size() == 1 && v.list.front() == "all") return all;
  std::vector<ref::FormatId> out;
  for (const std::string& name : v.list) {
    const auto f = ref::parse_format(name);
    if (!f || std::find(all.begin(), all.end(), *f) == all.end())
      throw InputError(v.where, "unknown operand format '" + name + "'; known: fp16, bf16, tf32, e4m3, e5m2" +
                                    (allow_all ? ", or [all]" : ""));
    out.push_back(*f);
  }
  if (out.empty()) throw InputError(v.where, "no format given");
  return out;
}

ref::Arch arch(const SchemaValue& v, const std::string& name) {
  const auto a = ref::parse_arch(name);
  if (!a) throw InputError(v.where, "unknown architecture '" + name + "'; known: sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120");
  return *a;
}

ReferenceSpec load_reference(const YAML::Node& node, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(node, file, reference_schema(), "reference section", base);
  ReferenceSpec r;
  r.where = where(file, node);
  bench::DotBenchOptions& o = r.options;
  const SchemaValue& profiles = v.at("profiles");
  if (profiles.list.size() == 1 && profiles.list.front() == "all") {
    o.archs = ref::all_archs();
  } else {
    for (const std::string& p : profiles.list) o.archs.push_back(arch(profiles, p));
    if (o.archs.empty()) throw InputError(profiles.where, "no profile given");
  }
  o.formats = formats(v.at("formats"), true);
  if (v.count("threads")) o.threads = thread_counts(v.at("threads"), "threads");
  o.batch = number(v, "batch", 1, 1 << 20, o.batch);
  o.min_seconds = static_cast<double>(number(v, "min_time_ms", 1, 60000, 50)) / 1000.0;
  o.repetitions = static_cast<int>(number(v, "repetitions", 2, 1000, static_cast<uint64_t>(o.repetitions)));
  o.seed = number(v, "seed", 0, UINT64_MAX, o.seed);
  return r;
}

HarnessSpec load_harness(const YAML::Node& node, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(node, file, harness_schema(), "harness section", base);
  HarnessSpec h;
  h.where = where(file, node);
  h.repetitions = static_cast<int>(number(v, "repetitions", 2, 100, 3));
  h.timeout_seconds = static_cast<double>(number(v, "timeout_seconds", 1, 86400, 600));
  std::set<std::string> names;
  for (const YAML::Node& entry : v.at("suites").node) {
    const SchemaValues s = check_mapping(entry, file, harness_suite_schema(), "harness suite", base);
    require_present(s.at("tier"));
    bench::HarnessCase c;
    c.tier_file = s.at("tier").path;
    c.suite = s.at("suite").text;
    c.name = c.tier_file.stem().string() + "." + c.suite;
    if (!names.insert(c.name).second) throw InputError(where(file, entry), "suite " + c.name + " is listed twice");
    h.cases.push_back(std::move(c));
  }
  if (h.cases.empty()) throw InputError(v.at("suites").where, "the harness section needs at least one suite");
  return h;
}

GemmSpec load_gemm(const YAML::Node& node, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(node, file, gemm_schema(), "gemm section", base);
  GemmSpec g;
  g.where = where(file, node);
  g.arch = arch(v.at("arch"), v.at("arch").text);
  if (v.count("family")) g.family = v.at("family").text == "mma" ? ref::InstrFamily::mma_sync : ref::InstrFamily::wgmma;
  g.formats = formats(v.at("formats"), false);
  for (ref::FormatId f : g.formats) {
    try {
      bench::bench_model(g.arch, g.family, f);
    } catch (const InputError& e) {
      throw InputError(v.at("formats").where, e.what());
    }
  }
  const SchemaValue& shapes = v.at("shapes");
  for (const std::string& s : shapes.list) {
    try {
      g.shapes.push_back(bench::parse_shape(s));
    } catch (const InputError& e) {
      throw InputError(shapes.where, e.what());
    }
  }
  if (g.shapes.empty()) throw InputError(shapes.where, "no shape given");
  std::stable_sort(g.shapes.begin(), g.shapes.end(), [](const kernels::GemmShape& a, const kernels::GemmShape& b) {
    return static_cast<double>(a.M) * a.N * a.K < static_cast<double>(b.M) * b.N * b.K;
  });
  std::set<std::string> names;
  for (const YAML::Node& entry : v.at("backends").node) {
    const SchemaValues b = check_mapping(entry, file, gemm_backend_schema(), "gemm backend", base);
    GemmBackendSpec spec;
    spec.name = kernels::canonical_backend_name(b.at("name").text);
    if (b.count("max_case_seconds"))
      spec.max_case_seconds = static_cast<double>(number(b, "max_case_seconds", 1, 3600, 0));
    if (b.count("n")) {
      spec.n = static_cast<int>(number(b, "n", 8, 256, 8));
      for (ref::FormatId f : g.formats) {
        try {
          bench::bench_model(g.arch, g.family, f, spec.n);
        } catch (const std::exception& e) {
          throw InputError(b.at("n").where, e.what());
        }
      }
    }
    if (!names.insert(spec.name).second) throw InputError(where(file, entry), "backend " + spec.name + " is listed twice");
    g.backends.push_back(std::move(spec));
  }
  if (g.backends.empty()) throw InputError(v.at("backends").where, "the gemm section needs at least one backend");
  g.warmup = static_cast<int>(number(v, "warmup", 1, 100, 2));  // the first warm-up run estimates the budget
  g.samples = static_cast<int>(number(v, "samples", 2, 1000, 20));
  g.seed = number(v, "seed", 0, UINT64_MAX, 1);
  if (v.count("native")) g.native = v.at("native").flag;
  return g;
}

// A section's `instructions`, each one `arch` has.
std::vector<std::string> instruction_names(const SchemaValues& v, ref::Arch a) {
  const SchemaValue& names = v.at("instructions");
  std::vector<std::string> out;
  for (const std::string& name : names.list) {
    const auto& models = ref::instructions_of(a);
    if (std::none_of(models.begin(), models.end(), [&](const ref::InstructionModel& x) { return x.instr.name == name; }))
      throw InputError(names.where, "no instruction " + name + " on " + v.at("arch").text + " (`mmaemu info` lists them)");
    out.push_back(name);
  }
  if (out.empty()) throw InputError(names.where, "no instruction given");
  return out;
}

// The fields the mmasim and process sections share, read into either's options.
template <class Options>
void load_tiles_section(const SchemaValues& v, Options& o) {
  require_present(v.at("script"));
  o.arch = arch(v.at("arch"), v.at("arch").text);
  o.instructions = instruction_names(v, o.arch);
  o.script = v.at("script").path;
  o.tiles = number(v, "tiles", 1, 1 << 20, o.tiles);
  o.repetitions = static_cast<int>(number(v, "repetitions", 1, 100, static_cast<uint64_t>(o.repetitions)));
  if (v.count("python")) o.python = v.at("python").text;
  o.seed = number(v, "seed", 0, UINT64_MAX, o.seed);
}

ProcessSpec load_process(const YAML::Node& node, const std::string& file, const fs::path& base) {
  ProcessSpec p;
  p.where = where(file, node);
  load_tiles_section(check_mapping(node, file, tiles_schema(), "process section", base), p.options);
  return p;
}

ModelSpec load_model(const YAML::Node& node, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(node, file, model_schema(), "model section", base);
  require_present(v.at("script"));
  ModelSpec m;
  m.where = where(file, node);
  bench::ModelBenchOptions& o = m.options;
  static const std::vector<std::string> known{"fp8-mlp", "llama-bf16", "gpt2-bf16"};  // model_rate.py's MODELS
  const SchemaValue& models = v.at("models");
  for (const std::string& name : models.list) {
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw InputError(models.where, "unknown model '" + name + "'; known: fp8-mlp, llama-bf16, gpt2-bf16");
    o.models.push_back(name);
  }
  if (o.models.empty()) throw InputError(models.where, "no model given");
  o.script = v.at("script").path;
  o.repetitions = static_cast<int>(number(v, "repetitions", 1, 100, static_cast<uint64_t>(o.repetitions)));
  if (v.count("python")) o.python = v.at("python").text;
  return m;
}

MmasimSpec load_mmasim(const YAML::Node& node, const std::string& file, const fs::path& base) {
  MmasimSpec m;
  m.where = where(file, node);
  load_tiles_section(check_mapping(node, file, tiles_schema(), "mmasim section", base), m.options);
  return m;
}

LibrarySpec load_library(const YAML::Node& node, const std::string& file, const fs::path& base) {
  const SchemaValues v = check_mapping(node, file, library_schema(), "library section", base);
  LibrarySpec l;
  l.where = where(file, node);
  bench::LibraryBenchOptions& o = l.options;
  o.formats = formats(v.at("formats"), false);
  const SchemaValue& shapes = v.at("shapes");
  for (const std::string& s : shapes.list) {
    try {
      o.shapes.push_back(bench::parse_shape(s));
    } catch (const InputError& e) {
      throw InputError(shapes.where, e.what());
    }
  }
  if (o.shapes.empty()) throw InputError(shapes.where, "no shape given");
  const SchemaValue& engines = v.at("engines");
  for (const std::string& name : engines.list) {
    const auto e = kernels::parse_library_engine(name);
    if (!e) throw InputError(engines.where, "unknown library engine '" + name + "'; known: reference, host, cpu, cuda");
    if (std::find(o.engines.begin(), o.engines.end(), *e) != o.engines.end())
      throw InputError(engines.where, "engine " + name + " is listed twice");
    o.engines.push_back(*e);
  }
  if (o.engines.empty()) throw InputError(engines.where, "no engine given");
  if (v.count("split_k")) {
    o.split_k.clear();
    const SchemaValue& ks = v.at("split_k");
    for (const std::string& k : ks.list) {
      const int n = std::atoi(k.c_str());
      if (n < 1 || n > 64 || std::to_string(n) != k) throw InputError(ks.where, "split_k entries are 1 to 64, not '" + k + "'");
      o.split_k.push_back(n);
    }
    if (o.split_k.empty()) throw InputError(ks.where, "no split_k given");
  }
  if (v.count("algorithm")) o.algorithm = static_cast<int>(number(v, "algorithm", 0, 1000, 0));
  o.repetitions = static_cast<int>(number(v, "repetitions", 1, 100, static_cast<uint64_t>(o.repetitions)));
  o.seed = number(v, "seed", 0, UINT64_MAX, o.seed);
  if (v.count("native")) l.native = v.at("native").flag;
  o.cpu_max_macs = static_cast<double>(number(v, "cpu_max_macs", 1, UINT64_MAX, 0));
  o.lanes_max_macs = static_cast<double>(number(v, "lanes_max_macs", 1, UINT64_MAX, 0));
  if (v.count("cpu_threads")) o.cpu_threads = thread_counts(v.at("cpu_threads"), "cpu_threads");
  if (v.count("sgemm_script")) {
    require_present(v.at("sgemm_script"));
    l.sgemm_script = v.at("sgemm_script").path;
  }
  if (v.count("python")) l.python = v.at("python").text;
  return l;
}

}  // namespace

const std::vector<std::string>& section_names() {
  static const std::vector<std::string> names{"reference", "mmasim", "process", "model", "library", "harness", "gemm"};
  return names;
}

std::string section_list() {
  std::string s;
  for (const std::string& n : section_names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool has_section(const T6Spec& spec, const std::string& section) {
  return (section == "reference" && spec.reference) || (section == "harness" && spec.harness) ||
         (section == "gemm" && spec.gemm) || (section == "mmasim" && spec.mmasim) || (section == "process" && spec.process) || (section == "model" && spec.model) ||
         (section == "library" && spec.library);
}

T6Spec load_t6(const fs::path& path, bool quick) {
  const std::string file = path.string();
  const fs::path base = path.parent_path();
  const YAML::Node root = load_yaml_file(path);
  const SchemaValues v = check_mapping(root, file, tier_schema(), "T6 tier file", base);
  T6Spec t;
  t.file = path;
  t.tier = v.at("tier").text;
  if (v.count("description")) t.description = v.at("description").text;
  // Both forms are checked whichever runs, so that a typo in the quick form fails every run.
  auto sections_of = [&](const SchemaValues& sv, T6Spec& into) {
    if (sv.count("reference")) into.reference = load_reference(sv.at("reference").node, file, base);
    if (sv.count("harness")) into.harness = load_harness(sv.at("harness").node, file, base);
    if (sv.count("gemm")) into.gemm = load_gemm(sv.at("gemm").node, file, base);
    if (sv.count("mmasim")) into.mmasim = load_mmasim(sv.at("mmasim").node, file, base);
    if (sv.count("process")) into.process = load_process(sv.at("process").node, file, base);
    if (sv.count("model")) into.model = load_model(sv.at("model").node, file, base);
    if (sv.count("library")) into.library = load_library(sv.at("library").node, file, base);
  };
  auto empty = [](const T6Spec& x) {
    return std::none_of(section_names().begin(), section_names().end(),
                        [&](const std::string& n) { return has_section(x, n); });
  };
  sections_of(v, t);
  if (v.count("quick")) {
    const SchemaValues q = check_mapping(v.at("quick").node, file, quick_schema(), "quick form", base);
    T6Spec quick_form;
    sections_of(q, quick_form);
    if (empty(quick_form))
      throw InputError(v.at("quick").where, "the quick form needs at least one of the sections " + section_list());
    t.has_quick_form = true;
    if (quick) {
      t.reference = std::move(quick_form.reference);
      t.harness = std::move(quick_form.harness);
      t.gemm = std::move(quick_form.gemm);
      t.mmasim = std::move(quick_form.mmasim);
      t.process = std::move(quick_form.process);
      t.model = std::move(quick_form.model);
      t.library = std::move(quick_form.library);
    }
  }
  if (v.count("baseline")) {
    const SchemaValues b = check_mapping(v.at("baseline").node, file, baseline_schema(), "baseline section", base);
    t.min_drop_percent = static_cast<double>(number(b, "min_drop_percent", 0, 100, 5));
  }
  if (v.count("targets")) t.targets = load_targets(v.at("targets").node, file);
  if (empty(t)) throw InputError(where(file, root), "a T6 tier file needs at least one of the sections " + section_list());
  return t;
}

}  // namespace mmaemu::t6
