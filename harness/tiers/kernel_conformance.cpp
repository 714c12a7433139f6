#include "harness/tiers/kernel_conformance.hpp"

#include <algorithm>
#include <map>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"
#include "harness/tiers/decline_rules.hpp"
#include "harness/tiers/kernel_conformance_plan.hpp"
#include "harness/tiers/kernel_conformance_problem.hpp"
#include "kernels/backend_names.hpp"
#include "kernels/registry.hpp"

namespace mmaemu {
namespace {

using tiers::GemmInputs;
using tiers::GemmOutputs;

// A GEMM operation: its shape and the families it runs with.
struct GemmOperation {
  kernels::GemmShape shape;
  std::vector<gen::Family> families;
};

struct Plan {
  std::vector<const kernels::Backend*> backends;
  const kernels::Backend* twin = nullptr;  // device_independence: the backend every other must equal
  std::vector<ref::Arch> profiles;
  std::vector<std::vector<const ref::InstructionModel*>> instructions;  // per profile
  std::vector<gen::Family> families;
  size_t tiles = 4;
  std::vector<GemmOperation> gemms;
  bool trace = true;
  uint64_t seed = 1;
  uint64_t min_outputs = 0;
  kernels::GemmShape bulk{1, 128, 128, 72};
  tiers::DeclineRules declines;  // require and allowed_declines
};

kernels::GemmShape read_shape(const std::string& text, const SchemaValue& v, const std::string& key) {
  std::string why;
  const auto s = tiers::parse_gemm_shape(text, &why);
  if (!s) throw InputError(v.where, "'" + key + "': " + why);
  return *s;
}

std::vector<kernels::GemmShape> read_shapes(const SuiteSpec& spec, const std::string& key) {
  std::vector<kernels::GemmShape> out;
  if (!spec.has(key)) return out;
  const SchemaValue& v = spec.values.at(key);
  for (const std::string& text : v.list) out.push_back(read_shape(text, v, key));
  return out;
}

// Reads and checks every key before anything runs. GPU backends are resolved only when `resolve`.
Plan read_plan(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available, bool resolve) {
  Plan p;
  tiers::check_backend_names(spec, "backends", available);
  if (spec.has("device_independence")) {
    const SchemaValue& v = spec.values.at("device_independence");
    const std::string name = kernels::canonical_backend_name(v.text);
    const bool known = std::any_of(available.begin(), available.end(), [&](auto* b) { return b->name() == name; }) ||
                       std::count(tiers::gpu_backend_names().begin(), tiers::gpu_backend_names().end(), name);
    if (!known) throw InputError(v.where, "unknown backend '" + v.text + "' in 'device_independence'");
  }
  p.profiles = tiers::read_profiles(spec);
  p.instructions = tiers::select_instructions(spec, p.profiles, tiers::read_instruction_filter(spec));
  p.families = tiers::read_families(spec, spec.has("families") ? &spec.values.at("families") : nullptr);
  p.tiles = spec.number("tiles", 4);
  for (const kernels::GemmShape& s : read_shapes(spec, "gemms")) p.gemms.push_back({s, p.families});
  const std::vector<gen::Family> large_families =
      tiers::read_families(spec, spec.has("large_families") ? &spec.values.at("large_families") : nullptr);
  for (const kernels::GemmShape& s : read_shapes(spec, "large_gemms")) p.gemms.push_back({s, large_families});
  p.trace = spec.flag("trace", true);
  p.seed = spec.number("seed", 1);
  p.min_outputs = spec.number("min_outputs", 0);
  if (spec.has("bulk_shape")) p.bulk = read_shape(spec.text("bulk_shape"), spec.values.at("bulk_shape"), "bulk_shape");
  if (p.tiles == 0 && p.gemms.empty() && p.min_outputs == 0)
    throw InputError(spec.where, "the suite has no operation: give 'tiles', 'gemms' or 'min_outputs'");
  if (!resolve) {
    tiers::DeclineRules::read(spec, nullptr);  // its entries are checked even where the suite cannot run
    return p;
  }

  p.backends = tiers::read_backends(spec, "backends", available, false);
  std::vector<std::string> runs;
  for (const kernels::Backend* b : p.backends) runs.push_back(b->name());
  if (spec.has("device_independence")) {
    const std::string name = kernels::canonical_backend_name(spec.text("device_independence"));
    const auto it = std::find_if(available.begin(), available.end(), [&](auto* b) { return b->name() == name; });
    if (it == available.end())
      throw InputError(spec.values.at("device_independence").where, "backend '" + name + "' is not in this build");
    p.twin = *it;
    runs.push_back(name);
  }
  p.declines = tiers::DeclineRules::read(spec, &runs);
  return p;
}

// What one backend did over the suite.
struct Tally {
  size_t problems = 0, outputs = 0, trace_steps = 0;
};

class Conformance {
 public:
  explicit Conformance(Plan plan) : plan_(std::move(plan)), cmp_(result_) {}

  SuiteResult run() {
    for (size_t i = 0; i < plan_.profiles.size(); ++i) run_profile(plan_.profiles[i], plan_.instructions[i]);
    finish();
    return std::move(result_);
  }

 private:
  void run_profile(ref::Arch arch, const std::vector<const ref::InstructionModel*>& instrs) {
    // Formats in catalogue order, each with its instructions: "profile x format" is what the counts are per.
    std::vector<std::pair<std::string, std::vector<const ref::InstructionModel*>>> by_format;
    for (const ref::InstructionModel* m : instrs) {
      const std::string f = tiers::format_label(m->instr);
      auto it = std::find_if(by_format.begin(), by_format.end(), [&](auto& e) { return e.first == f; });
      if (it == by_format.end()) it = by_format.insert(by_format.end(), {f, {}});
      it->second.push_back(m);
    }
    for (const auto& [format, models] : by_format) {
      const std::string pf = std::string(ref::arch_name(arch)) + "/" + format;
      for (const ref::InstructionModel* m : models) run_instruction(*m, pf);
      top_up(models, pf);
    }
  }

  void run_instruction(const ref::InstructionModel& m, const std::string& pf) {
    const std::string prefix = std::string(ref::arch_name(m.arch)) + "/" + m.instr.name + "/";
    for (gen::Family f : plan_.families)
      if (plan_.tiles > 0) {
        const std::string stream = prefix + "instruction/" + std::string(gen::family_name(f));
        problem(stream, pf, [&] { return tiers::instruction_tiles(m, f, plan_.tiles, tiers::problem_seed(plan_.seed, stream)); }, m,
                {plan_.tiles, size_t(m.instr.m), size_t(m.instr.n), size_t(m.instr.k)});
      }
    for (const GemmOperation& op : plan_.gemms)
      for (gen::Family f : op.families) {
        const std::string stream = prefix + "gemm " + tiers::shape_name(op.shape) + "/" + std::string(gen::family_name(f));
        problem(stream, pf, [&] { return tiers::gemm_operands(m, f, op.shape, tiers::problem_seed(plan_.seed, stream)); }, m,
                op.shape);
      }
  }

  // Bulk GEMMs until every backend that ran in this profile x format has compared min_outputs outputs.
  void top_up(const std::vector<const ref::InstructionModel*>& models, const std::string& pf) {
    size_t fewest = SIZE_MAX;
    for (const auto& [key, n] : per_format_)
      if (key.second == pf) fewest = std::min(fewest, n);
    if (plan_.min_outputs == 0 || fewest == SIZE_MAX || fewest >= plan_.min_outputs) return;
    const size_t per_batch = models.size() * plan_.families.size() * plan_.bulk.M * plan_.bulk.N;
    kernels::GemmShape shape = plan_.bulk;
    shape.batch = (plan_.min_outputs - fewest + per_batch - 1) / per_batch;
    for (const ref::InstructionModel* m : models)
      for (gen::Family f : plan_.families) {
        const std::string stream = std::string(ref::arch_name(m->arch)) + "/" + m->instr.name + "/bulk " +
                                   tiers::shape_name(shape) + " x" + std::to_string(shape.batch) + "/" +
                                   std::string(gen::family_name(f));
        problem(stream, pf, [&] { return tiers::gemm_operands(*m, f, shape, tiers::problem_seed(plan_.seed, stream)); }, *m,
                shape);
      }
  }

  // One problem through every backend. Inputs and the reference are made only when some backend runs it.
  template <class MakeInputs>
  void problem(const std::string& stream, const std::string& pf, MakeInputs&& make, const ref::InstructionModel& m,
               const kernels::GemmShape& shape) {
    std::vector<const kernels::Backend*> runners;
    for (const kernels::Backend* b : plan_.backends)
      if (accepts(*b, m, shape, pf)) runners.push_back(b);
    // The twin is asked separately only when it is not under test itself (its decline is counted once).
    const bool twin_under_test =
        std::find(plan_.backends.begin(), plan_.backends.end(), plan_.twin) != plan_.backends.end();
    const bool twin_runs = plan_.twin && !twin_under_test && !runners.empty() && accepts(*plan_.twin, m, shape, pf);
    if (runners.empty()) return;
    const GemmInputs in = make();
    const GemmOutputs expected = tiers::reference_outputs(in, plan_.trace);
    std::map<const kernels::Backend*, GemmOutputs> got;
    for (const kernels::Backend* b : runners)
      if (auto out = run_backend(*b, in, stream)) {
        tally(*b, in, pf);
        tiers::compare_outputs(cmp_, b->name() + "/" + stream, in, expected, *out);
        got.emplace(b, std::move(*out));
      }
    if (!plan_.twin) return;
    // Device independence: the same inputs, the same bits, on the GPU and on the CPU.
    const GemmOutputs* twin_out = nullptr;
    std::optional<GemmOutputs> twin_run;
    if (got.count(plan_.twin)) twin_out = &got.at(plan_.twin);
    else if (twin_runs && (twin_run = run_backend(*plan_.twin, in, stream))) {
      tally(*plan_.twin, in, pf);
      tiers::compare_outputs(cmp_, plan_.twin->name() + "/" + stream, in, expected, *twin_run);
      twin_out = &*twin_run;
    }
    if (!twin_out) return;
    for (const auto& [b, out] : got)
      if (b != plan_.twin) {
        tiers::compare_outputs(cmp_, b->name() + "=" + plan_.twin->name() + "/" + stream, in, *twin_out, out);
        independence_[b->name() + "=" + plan_.twin->name()] += in.outputs();
      }
  }

  bool accepts(const kernels::Backend& b, const ref::InstructionModel& m, const kernels::GemmShape& shape,
               const std::string& pf) {
    const auto why = b.declines(m, shape, plan_.trace);
    if (!why) return true;
    ++declined_[b.name() + " x " + pf.substr(0, pf.find('/')) + ": " + why->detail];
    count_decline(coverage_[b.name()].declines, *why);
    tallies_[b.name()];  // a backend that never ran still appears in the counts, with zeros
    return false;
  }

  std::optional<GemmOutputs> run_backend(const kernels::Backend& b, const GemmInputs& in, const std::string& stream) {
    try {
      return tiers::backend_outputs(b, in, plan_.trace);
    } catch (const std::exception& e) {  // KernelError and anything else: an error, never a pass
      if (errors_.size() < 5) errors_.push_back(b.name() + "/" + stream + ": " + e.what());
      ++error_count_;
      return std::nullopt;
    }
  }

  void tally(const kernels::Backend& b, const GemmInputs& in, const std::string& pf) {
    Tally& t = tallies_[b.name()];
    ++t.problems;
    ++coverage_[b.name()].ran;
    t.outputs += in.outputs();
    if (plan_.trace) t.trace_steps += in.outputs() * in.steps();
    per_format_[{b.name(), pf}] += in.outputs();
  }

  // Verdict and the counts, in the suite's reason (pass included), so that reports say what was covered.
  void finish() {
    set_verdict_from_counts(result_);
    std::vector<std::string> parts;
    if (!result_.reason.empty()) parts.push_back(result_.reason);
    for (const std::string& why : plan_.declines.failures(coverage_)) {
      parts.push_back(why);
      result_.failures.push_back(why);
      if (result_.verdict == Verdict::pass) result_.verdict = Verdict::fail;
    }
    if (error_count_ > 0) {
      std::string e = std::to_string(error_count_) + " backend runs failed: ";
      for (size_t i = 0; i < errors_.size(); ++i) e += (i ? "; " : "") + errors_[i];
      parts.insert(parts.begin(), e);
      result_.verdict = Verdict::error;
    }
    for (const auto& [name, t] : tallies_)
      parts.push_back(name + ": " + std::to_string(t.problems) + " problems, " + std::to_string(t.outputs) +
                      " outputs" + (plan_.trace ? " and " + std::to_string(t.trace_steps) + " accumulator steps" : "") +
                      " compared with the reference");
    for (const auto& [pair, n] : independence_)
      parts.push_back("device independence " + pair + ": " + std::to_string(n) + " outputs");
    if (!per_format_.empty()) {
      auto fewest = std::min_element(per_format_.begin(), per_format_.end(),
                                     [](auto& x, auto& y) { return x.second < y.second; });
      parts.push_back("fewest outputs per backend x profile x format: " + std::to_string(fewest->second) + " (" +
                      fewest->first.first + " " + fewest->first.second + ")");
    }
    for (const auto& [what, n] : declined_) parts.push_back("declined: " + what + " (" + std::to_string(n) + " problems)");
    parts.push_back("seed " + std::to_string(plan_.seed));
    result_.reason.clear();
    for (const std::string& p : parts) result_.reason += (result_.reason.empty() ? "" : "; ") + p;
    result_.coverage = coverage_;
    result_.seed = plan_.seed;
  }

  Plan plan_;
  SuiteResult result_;
  BitComparator cmp_;
  std::map<std::string, Tally> tallies_;
  std::map<std::pair<std::string, std::string>, size_t> per_format_;  // (backend, "sm90/fp16") -> outputs
  std::map<std::string, size_t> independence_;
  std::map<std::string, size_t> declined_;  // "tc x sm80: reason" -> problems
  tiers::Coverage coverage_;                // per backend, for the decline rules
  std::vector<std::string> errors_;
  size_t error_count_ = 0;
};

}  // namespace

SuiteResult run_kernel_conformance(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available) {
  const bool gpu = spec.text("device", "cpu") == "gpu";
  read_plan(spec, available, false);  // every key checked, even where the suite then skips
  if (gpu)
    if (auto why = tiers::gpu_unavailable_reason()) {
      SuiteResult r;
      r.verdict = Verdict::skip;
      r.reason = *why;
      return r;
    }
  return Conformance(read_plan(spec, available, true)).run();
}

SuiteKind kernel_conformance_kind() {
  return {
      .name = "kernel-conformance",
      .description = "every emulation backend against the reference, bit for bit, D and accumulator trace",
      .keys =
          {
              tiers::backends_key(),
              tiers::profiles_key(),
              tiers::instructions_key(),
              tiers::formats_key(),
              tiers::families_key(),
              optional_key("tiles", ValueType::integer),
              optional_key("gemms", ValueType::string_list),
              optional_key("large_gemms", ValueType::string_list),
              optional_key("large_families", ValueType::string_list),
              optional_key("trace", ValueType::boolean),
              tiers::seed_key(),
              optional_key("min_outputs", ValueType::integer),
              optional_key("bulk_shape", ValueType::string),
              optional_key("device_independence", ValueType::string),
              tiers::require_key(),
              tiers::allowed_declines_key(),
              optional_key("device", ValueType::string).one_of({"cpu", "gpu"}),
          },
      .run = [](const SuiteSpec& spec) { return run_kernel_conformance(spec, kernels::backends()); },
  };
}

}  // namespace mmaemu
