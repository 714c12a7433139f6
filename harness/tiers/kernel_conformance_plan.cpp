#include "harness/tiers/kernel_conformance_plan.hpp"

#include <algorithm>

#include "harness/core/errors.hpp"
#include "kernels/backend_names.hpp"

#if defined(MMAEMU_TIERS_HAVE_CUDA)
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/registry.hpp"
#endif

namespace mmaemu::tiers {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<std::string> names_of(const std::vector<const kernels::Backend*>& bs) {
  std::vector<std::string> out;
  for (const kernels::Backend* b : bs) out.push_back(b->name());
  return out;
}

// "all" alone, or a list without it.
bool is_all(const SchemaValue& v, const std::string& key) {
  if (!contains(v.list, "all")) return false;
  if (v.list.size() != 1) throw InputError(v.where, "'" + key + "' lists 'all' beside other entries");
  return true;
}

void require_non_empty(const SchemaValue& v, const std::string& key) {
  if (v.list.empty()) throw InputError(v.where, "'" + key + "' is empty");
}

}  // namespace

const std::vector<std::string>& gpu_backend_names() {
  static const std::vector<std::string> names = kernels::gpu_backend_names();
  return names;
}

std::optional<std::string> gpu_unavailable_reason() {
#if defined(MMAEMU_TIERS_HAVE_CUDA)
  if (const Declined why = kernels::cuda_device_declines()) return why->detail;
  return std::nullopt;
#else
  return std::string("built without CUDA: no GPU backend in this build");
#endif
}

bool InstructionFilter::selects(const ref::InstructionModel& m) const {
  const ref::Instruction& in = m.instr;
  // N = 8 stands for every N: a wide-N variant only when named (kernels of its own, e.g. tc's pipelined GEMM).
  if (ref::is_wide_n_variant(in)) return contains(names, in.name);
  if (!formats.empty() && std::find(formats.begin(), formats.end(), in.a) == formats.end() &&
      std::find(formats.begin(), formats.end(), in.b) == formats.end())
    return false;
  if (all) return true;
  if (mma && in.family == ref::InstrFamily::mma_sync) return true;
  if (wgmma && in.family == ref::InstrFamily::wgmma) return true;
  if (tcgen05 && in.family == ref::InstrFamily::tcgen05) return true;
  return contains(names, in.name);
}

std::string format_label(const ref::Instruction& in) {
  const std::string a(ref::format_name(in.a)), b(ref::format_name(in.b));
  return a == b ? a : a + "x" + b;
}

KeySpec backends_key() { return required_key("backends", ValueType::string_list); }
KeySpec profiles_key() { return optional_key("profiles", ValueType::string_list); }
KeySpec instructions_key() { return optional_key("instructions", ValueType::string_list); }
KeySpec formats_key() { return optional_key("formats", ValueType::string_list); }
KeySpec families_key() { return optional_key("families", ValueType::string_list); }
KeySpec seed_key() { return optional_key("seed", ValueType::integer); }

std::vector<std::string> backend_names_of(const SchemaValue& v) {
  std::vector<std::string> out;
  for (const std::string& name : v.list) out.push_back(kernels::canonical_backend_name(name));
  return out;
}

void check_backend_names(const SuiteSpec& spec, const std::string& key,
                         const std::vector<const kernels::Backend*>& available) {
  const SchemaValue& v = spec.values.at(key);
  require_non_empty(v, key);
  if (is_all(v, key)) return;
  const std::vector<std::string> have = names_of(available);
  const std::vector<std::string> names = backend_names_of(v);
  for (const std::string& name : names) {
    // Beyond the ladder: the cpu backend held to one instruction set ("cpu:avx2"), which find_backend knows.
    if (!contains(have, name) && !contains(gpu_backend_names(), name) && !kernels::find_backend(name))
      throw InputError(v.where, "unknown backend '" + name + "' in '" + key + "'; known: " + joined(have) +
                                    (have.size() ? ", " : "") + joined(gpu_backend_names()) +
                                    " (GPU, CUDA builds), cpu:portable, cpu:avx2, cpu:avx512");
    if (std::count(names.begin(), names.end(), name) > 1)
      throw InputError(v.where, "'" + key + "' names backend '" + name + "' twice");
  }
}

std::vector<const kernels::Backend*> read_backends(const SuiteSpec& spec, const std::string& key,
                                                   const std::vector<const kernels::Backend*>& available,
                                                   bool include_reference) {
  check_backend_names(spec, key, available);
  const SchemaValue& v = spec.values.at(key);
  std::vector<const kernels::Backend*> out;
  if (is_all(v, key)) {
    for (const kernels::Backend* b : available)
      if (include_reference || b->name() != "reference") out.push_back(b);
    return out;
  }
  for (const std::string& name : backend_names_of(v)) {
    const auto it = std::find_if(available.begin(), available.end(), [&](auto* b) { return b->name() == name; });
    const kernels::Backend* pinned = it == available.end() ? kernels::find_backend(name) : nullptr;
    if (it == available.end() && !pinned)
      throw InputError(v.where, "backend '" + name + "' is not in this build (it has: " + joined(names_of(available)) + ")");
    out.push_back(it != available.end() ? *it : pinned);
  }
  return out;
}

std::vector<ref::Arch> read_profiles(const SuiteSpec& spec) {
  if (!spec.has("profiles")) return ref::all_archs();
  const SchemaValue& v = spec.values.at("profiles");
  require_non_empty(v, "profiles");
  if (is_all(v, "profiles")) return ref::all_archs();
  std::vector<ref::Arch> out;
  for (const std::string& name : v.list) {
    const auto a = ref::parse_arch(name);
    if (!a) throw InputError(v.where, "unknown profile '" + name + "' in 'profiles' (sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120 or all)");
    if (std::find(out.begin(), out.end(), *a) != out.end()) throw InputError(v.where, "'profiles' names '" + name + "' twice");
    out.push_back(*a);
  }
  return out;
}

InstructionFilter read_instruction_filter(const SuiteSpec& spec) {
  InstructionFilter f;
  if (spec.has("instructions")) {
    const SchemaValue& v = spec.values.at("instructions");
    require_non_empty(v, "instructions");
    f.all = is_all(v, "instructions");
    for (const std::string& item : v.list) {
      if (item == "all") continue;
      if (item == "mma") f.mma = true;
      else if (item == "wgmma") f.wgmma = true;
      else if (item == "tcgen05") f.tcgen05 = true;
      else {
        std::string why;
        if (!ref::parse_instruction(item, &why))
          throw InputError(v.where, "'instructions' entry '" + item + "' is neither all, mma, wgmma, tcgen05 nor an instruction: " + why);
        f.names.push_back(item);
      }
    }
  }
  if (spec.has("formats")) {
    const SchemaValue& v = spec.values.at("formats");
    require_non_empty(v, "formats");
    for (const std::string& name : v.list) {
      const auto fmt = ref::parse_format(name);
      if (!fmt) throw InputError(v.where, "unknown format '" + name + "' in 'formats'");
      f.formats.push_back(*fmt);
    }
  }
  return f;
}

std::vector<gen::Family> read_families(const SuiteSpec&, const SchemaValue* v) {
  if (!v) return gen::all_families();
  require_non_empty(*v, "families");
  if (is_all(*v, "families")) return gen::all_families();
  std::vector<gen::Family> out;
  for (const std::string& name : v->list) {
    const auto f = gen::parse_family(name);
    if (!f) {
      std::string known;
      for (gen::Family g : gen::all_families()) known += (known.empty() ? "" : ", ") + std::string(gen::family_name(g));
      throw InputError(v->where, "unknown input family '" + name + "'; known: " + known);
    }
    out.push_back(*f);
  }
  return out;
}

std::vector<std::vector<const ref::InstructionModel*>> select_instructions(const SuiteSpec& spec,
                                                                           const std::vector<ref::Arch>& profiles,
                                                                           const InstructionFilter& filter) {
  std::vector<std::vector<const ref::InstructionModel*>> out;
  std::vector<std::string> seen;
  size_t total = 0;
  for (ref::Arch a : profiles) {
    out.emplace_back();
    for (const ref::InstructionModel& m : ref::instructions_of(a))
      if (filter.selects(m)) {
        out.back().push_back(&m);
        seen.push_back(m.instr.name);
        ++total;
      }
  }
  const std::string where = spec.has("instructions") ? spec.values.at("instructions").where : spec.where;
  for (const std::string& name : filter.names)
    if (!contains(seen, name)) throw InputError(where, "instruction '" + name + "' is in none of the suite's profiles (or its formats exclude it)");
  if (total == 0) throw InputError(where, "the suite's profiles, instructions and formats select no instruction");
  return out;
}

}  // namespace mmaemu::tiers
