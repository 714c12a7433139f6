// The ladder: every backend, fastest first, ending with the reference; `auto` takes the first that
// does not decline and keeps the reasons of those that did.
#include "kernels/registry.hpp"

#include <iostream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "kernels/backend_names.hpp"

namespace mmaemu::kernels {

const std::vector<const Backend*>& backends() {
  static const std::vector<const Backend*> ladder = [] {
    // What this build compiled, put in the order of the one list of names (backend_names.hpp).
    std::vector<const Backend*> built;
#if defined(MMAEMU_KERNELS_HAVE_TC_NATIVE)
    built.push_back(&tc_backend());
#endif
#if defined(MMAEMU_KERNELS_HAVE_TILED_FP64)
    built.push_back(&tiled_fp64_backend());
#endif
#if defined(MMAEMU_KERNELS_HAVE_TILED)
    built.push_back(&tiled_backend());
#endif
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
    built.push_back(&simt_backend());
#endif
    built.push_back(&cpu_backend());
    built.push_back(&host_backend());
    built.push_back(&reference_backend());
    std::vector<const Backend*> l;
    for (const BackendName& n : kBackendNames)
      for (const Backend* b : built)
        if (b->name() == n.name) l.push_back(b);
    if (l.size() != built.size()) throw std::logic_error("a backend of this build is missing from kBackendNames");
    return l;
  }();
  return ladder;
}

std::string canonical_backend_name(std::string_view name) {
  for (const BackendAlias& a : kBackendAliases)
    if (a.old_name == name) {
      static std::mutex mutex;
      static std::set<std::string_view> warned;
      const std::lock_guard<std::mutex> lock(mutex);
      if (warned.insert(a.old_name).second)
        std::cerr << "mmaemu: backend '" << a.old_name << "' is now called '" << a.name
                  << "'; the old name is accepted for now and will be removed\n";
      return std::string(a.name);
    }
  return std::string(name);
}

const Backend* find_backend(const std::string& name_or_alias) {
  const std::string name = canonical_backend_name(name_or_alias);
  for (const Backend* b : backends())
    if (b->name() == name) return b;
  if (name.rfind("cpu:", 0) == 0) return pinned_cpu_backend(name.substr(4));
  return nullptr;
}

namespace {
std::string known_names() {
  std::string s;
  for (const Backend* b : backends()) s += (s.empty() ? "" : ", ") + b->name();
  return s + ", cpu:portable, cpu:avx2, cpu:avx512, auto";
}
}  // namespace

LadderChoice choose_backend(const std::string& name_or_auto, const ref::InstructionModel& model,
                            const GemmShape& shape, bool wants_trace) {
  LadderChoice choice;
  if (name_or_auto == "auto") {
    for (const Backend* b : backends()) {
      if (auto why = b->declines(model, shape, wants_trace)) {
        choice.declined.emplace_back(b->name(), std::move(*why));
        continue;
      }
      choice.chosen = b;
      break;
    }
    return choice;
  }
  const Backend* b = find_backend(name_or_auto);
  if (!b) {
    choice.declined.emplace_back(canonical_backend_name(name_or_auto), decline(DeclineCode::unknown_backend,
                                                       "unknown backend (this build has: " + known_names() + ")"));
  } else if (auto why = b->declines(model, shape, wants_trace)) {
    choice.declined.emplace_back(b->name(), std::move(*why));
  } else {
    choice.chosen = b;
  }
  return choice;
}

}  // namespace mmaemu::kernels
