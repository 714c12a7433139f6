#include "harness/tiers/native_parity.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"
#include "harness/tiers/decline_rules.hpp"
#include "harness/tiers/kernel_conformance_plan.hpp"
#include "harness/tiers/kernel_conformance_problem.hpp"
#include "kernels/registry.hpp"
#include "harness/record/recording.hpp"

#if defined(MMAEMU_TIERS_HAVE_CUDA)
#include "harness/record/gpu_run.hpp"
#endif

namespace mmaemu {
namespace {

using tiers::GemmInputs;
using tiers::GemmOutputs;

// "sm90" -> 90, "sm100" -> 100: the compute capability x 10 of a profile's GPUs.
int sm_of(ref::Arch a) { return std::stoi(std::string(ref::arch_name(a)).substr(2)); }

uint64_t fresh_seed() {
  return static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000000000ull;
}

class Parity {
 public:
  Parity(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available, const NativeGpu& gpu)
      : gpu_(gpu), cmp_(result_) {
    const SchemaValue& profile = spec.values.at("profile");
    const auto arch = ref::parse_arch(profile.text);
    if (!arch) throw InputError(profile.where, "unknown profile '" + profile.text + "'");
    arch_ = *arch;
    backends_ = tiers::read_backends(spec, "backends", available, false);
    std::vector<std::string> runs = {"reference"};
    for (const kernels::Backend* b : backends_) runs.push_back(b->name());
    declines_ = tiers::DeclineRules::read(spec, &runs);
    families_ = tiers::read_families(spec, spec.has("families") ? &spec.values.at("families") : nullptr);
    models_ = tiers::select_instructions(spec, {arch_}, tiers::read_instruction_filter(spec)).front();
    tiles_ = spec.number("tiles", 0);
    seed_ = spec.has("seed") ? spec.number("seed", 0) : fresh_seed();
  }

  SuiteResult run() {
    const std::vector<std::string>& recordable = record::recordable_instructions();
    for (const ref::InstructionModel* m : models_) {
      std::string why;
      if (std::find(recordable.begin(), recordable.end(), m->instr.name) == recordable.end())
        why = "no native kernel for this instruction";
      else if (!gpu_.has(m->instr.name, &why)) {
      } else {
        for (gen::Family f : families_) family(*m, f);
        continue;
      }
      ++declined_["native: " + why];
    }
    finish();
    return std::move(result_);
  }

 private:
  void family(const ref::InstructionModel& m, gen::Family f) {
    const std::string stream = std::string(ref::arch_name(arch_)) + "/" + m.instr.name + "/" + std::string(gen::family_name(f));
    const size_t tiles = tiles_ ? tiles_ : static_cast<size_t>(record::default_tiles_per_family(m.instr));
    const GemmInputs in = tiers::instruction_tiles(m, f, tiles, tiers::problem_seed(seed_, stream));
    GemmOutputs native;
    if (const std::string e = gpu_.run(m.instr, tiles, in.A, in.B, in.C, native.D); !e.empty()) {
      error("native/" + stream + ": " + e);
      return;
    }
    native_outputs_ += in.outputs();
    compare("reference", stream, in, native, tiers::reference_outputs(in, false));
    for (const kernels::Backend* b : backends_) {
      if (auto why = b->declines(m, in.shape, false)) {
        ++declined_[b->name() + ": " + why->detail];
        count_decline(coverage_[b->name()].declines, *why);
        counts_[b->name()];
        continue;
      }
      try {
        compare(b->name(), stream, in, native, tiers::backend_outputs(*b, in, false));
      } catch (const std::exception& e) {  // KernelError and anything else: an error, never a pass
        error(b->name() + "/" + stream + ": " + e.what());
      }
    }
  }

  void compare(const std::string& who, const std::string& stream, const GemmInputs& in, const GemmOutputs& native,
               const GemmOutputs& got) {
    tiers::compare_outputs(cmp_, who + "/" + stream, in, native, got);
    counts_[who] += in.outputs();
    ++coverage_[who].ran;
  }

  void error(const std::string& what) {
    if (errors_.size() < 5) errors_.push_back(what);
    ++error_count_;
  }

  void finish() {
    set_verdict_from_counts(result_);
    std::vector<std::string> parts;
    if (!result_.reason.empty()) parts.push_back(result_.reason);
    if (error_count_ > 0) {
      std::string e = std::to_string(error_count_) + " runs failed: ";
      for (size_t i = 0; i < errors_.size(); ++i) e += (i ? "; " : "") + errors_[i];
      parts.insert(parts.begin(), e);
      result_.verdict = Verdict::error;
    }
    for (const std::string& why : declines_.failures(coverage_)) {
      parts.push_back(why);
      result_.failures.push_back(why);
      if (result_.verdict == Verdict::pass) result_.verdict = Verdict::fail;
    }
    parts.push_back(gpu_.name + " (sm" + std::to_string(gpu_.sm) + "): " + std::to_string(native_outputs_) +
                    " native outputs");
    for (const auto& [who, n] : counts_) parts.push_back(who + ": " + std::to_string(n) + " outputs compared");
    for (const auto& [what, n] : declined_) parts.push_back("declined: " + what + " (" + std::to_string(n) + ")");
    // The same words whether the seed was drawn here or given, so that a replay's report equals the run's.
    parts.push_back("seed " + std::to_string(seed_) + " (`mmaemu run --seed " + std::to_string(seed_) +
                    "` replays these inputs)");
    result_.reason.clear();
    for (const std::string& p : parts) result_.reason += (result_.reason.empty() ? "" : "; ") + p;
    result_.coverage = coverage_;
    result_.seed = seed_;
  }

  const NativeGpu& gpu_;
  ref::Arch arch_{};
  std::vector<const kernels::Backend*> backends_;
  tiers::DeclineRules declines_;  // require and allowed_declines
  tiers::Coverage coverage_;
  std::vector<gen::Family> families_;
  std::vector<const ref::InstructionModel*> models_;
  size_t tiles_ = 0;
  uint64_t seed_ = 0;
  SuiteResult result_;
  BitComparator cmp_;
  size_t native_outputs_ = 0;
  std::map<std::string, size_t> counts_;    // outputs compared, per backend ("reference" included)
  std::map<std::string, size_t> declined_;  // "tiled: reason" -> families x instructions
  std::vector<std::string> errors_;
  size_t error_count_ = 0;
};

}  // namespace

std::optional<NativeGpu> open_native_gpu(std::string* why_not) {
#if defined(MMAEMU_TIERS_HAVE_CUDA)
  const auto dev = record::open_device(0, why_not);
  if (!dev) return std::nullopt;
  NativeGpu g;
  g.name = dev->name;
  g.sm = dev->cc();
  g.has = [d = *dev](const std::string& instr, std::string* why) { return record::device_has_instruction(d, instr, why); };
  g.run = [](const ref::Instruction& instr, size_t tiles, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
             const std::vector<uint32_t>& c, std::vector<uint32_t>& d) {
    record::InstructionRecording r;
    r.instr = instr;
    r.tiles = static_cast<int>(tiles);
    r.a = a;
    r.b = b;
    r.c = c;
    return record::run_on_gpu(r, 0xFF, d);  // D poisoned with all ones before the launch
  };
  return g;
#else
  *why_not = "built without CUDA: the GPU's own instructions cannot run";
  return std::nullopt;
#endif
}

SuiteResult run_native_parity(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available,
                              const std::optional<NativeGpu>& gpu, const std::string& why_not) {
  const SchemaValue& profile = spec.values.at("profile");
  const auto arch = ref::parse_arch(profile.text);
  if (!arch) throw InputError(profile.where, "unknown profile '" + profile.text + "'");
  // Every key is checked, even where the suite then skips.
  tiers::check_backend_names(spec, "backends", available);
  tiers::read_families(spec, spec.has("families") ? &spec.values.at("families") : nullptr);
  tiers::select_instructions(spec, {*arch}, tiers::read_instruction_filter(spec));
  SuiteResult skipped;
  skipped.verdict = Verdict::skip;
  if (!gpu) {
    skipped.reason = why_not;
    return skipped;
  }
  if (gpu->sm != sm_of(*arch)) {
    skipped.reason = "the GPU is " + gpu->name + " (sm" + std::to_string(gpu->sm) + "); the suite's profile is " +
                     profile.text;
    return skipped;
  }
  return Parity(spec, available, *gpu).run();
}

SuiteKind native_parity_kind() {
  return {
      .name = "native-parity",
      .description = "the GPU's own MMA instructions on fresh inputs against the reference and every backend",
      .keys =
          {
              required_key("profile", ValueType::string),
              tiers::backends_key(),
              tiers::instructions_key(),
              tiers::formats_key(),
              tiers::families_key(),
              optional_key("tiles", ValueType::integer),
              tiers::seed_key(),
              tiers::require_key(),
              tiers::allowed_declines_key(),
          },
      .run =
          [](const SuiteSpec& spec) {
            std::string why_not;
            const std::optional<NativeGpu> gpu = open_native_gpu(&why_not);
            return run_native_parity(spec, kernels::backends(), gpu, why_not);
          },
  };
}

}  // namespace mmaemu
