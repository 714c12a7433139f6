#include "harness/api/call_kinds.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu::api {

MeasuredCallKinds read_call_kinds(const std::filesystem::path& file) {
  const std::string where = file.string();
  MeasuredCallKinds m;
  try {
    const nlohmann::json j = nlohmann::json::parse(read_input_file(file, "the call kinds' measurement"));
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string() || j["schema"] != "mmaemu-cublaslt-call-kinds/1")
      throw InputError(where, "schema is not mmaemu-cublaslt-call-kinds/1");
    m.source = j.at("source").get<std::string>();
    if (j.contains("sources"))
      for (const auto& [kind, text] : j.at("sources").items()) m.sources[kind] = text.get<std::string>();
    for (const auto& [kind, types] : j.at("kinds").items())
      for (const auto& [type, a] : types.items()) {
        const CallKindAgreement agreement{a.at("calls").get<size_t>(), a.at("same_arithmetic").get<size_t>()};
        if (agreement.same_arithmetic > agreement.calls)
          throw InputError(where, kind + " " + type + ": more calls agree than were measured");
        m.kinds[kind][type] = agreement;
      }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not a call kinds' measurement: ") + e.what());
  }
  return m;
}

const MeasuredCallKinds& measured_call_kinds(const std::filesystem::path& resolver_file) {
  static std::mutex mutex;
  static std::map<std::filesystem::path, MeasuredCallKinds> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  const std::filesystem::path file = resolver_file.parent_path() / "call-kinds.json";
  if (auto it = loaded.find(file); it != loaded.end()) return it->second;
  MeasuredCallKinds m;
  if (std::filesystem::exists(file)) m = read_call_kinds(file);
  return loaded.emplace(file, std::move(m)).first->second;
}

namespace {

constexpr int kBiasGemvAlgo = 13;  // cuBLASLt's GEMV kernel

// The measured agreement of `kind` for the call's type as (certainty, its words for the basis line).
std::pair<double, std::string> measured(const MeasuredCallKinds& m, const std::string& kind, const lt::LtCall& call) {
  const std::string type(ref::format_name(call.a));
  const auto k = m.kinds.find(kind);
  const CallKindAgreement none;
  const CallKindAgreement& a =
      k == m.kinds.end() || !k->second.count(type) ? none : k->second.at(type);
  if (a.calls == 0) return {0.0, "not measured for " + type};
  // Laplace's rule of succession, (agreeing + 1) / (calls + 2): a few agreeing calls are not 100%
  // certainty (20 of 20 gives 95.5%; the gate's 99% needs 98 of 98).
  const double c = static_cast<double>(a.same_arithmetic + 1) / static_cast<double>(a.calls + 2);
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100 * c);
  const auto own = m.sources.find(kind);
  return {c, "whose arithmetic is the recorded configuration's in " + std::to_string(a.same_arithmetic) + " of " +
                 std::to_string(a.calls) + " recorded " + type + " calls whose answer the model computes (" + pct +
                 " by the rule of succession, " + (own != m.sources.end() ? own->second : m.source) + ")"};
}

}  // namespace

lt::Resolution resolve_call_kind(const lt::Resolution& plain, const lt::LtCall& call, const MeasuredCallKinds& m) {
  lt::Resolution r = plain;
  if (!r.config) return r;
  if (call.batch > 1 && r.batched_tree) {
    r.basis = "a batched call: " + r.basis;  // the resolver's batched trees: fitted, with their own certainty
  } else if (call.batch > 1) {
    r.config->split_k = 1;
    r.config->reduction = 0;
    r.config->workspace = 0;
    const auto [c, words] = measured(m, "batched", call);
    r.certainty = c;
    r.basis = "a batched call: the single call's answer without split-K, a rule " + words;
  } else if (call.bias && call.M == 1) {
    // One output feature: the heuristic answers with its GEMV kernel whatever the plain call gets (all
    // but the few refused in the call kinds' sweep: kind bias-single-output), a kernel without rules:
    // the library model declines it by name.
    r.config = lt::LtAlgoConfig{};
    r.config->algo_id = kBiasGemvAlgo;
    r.config->tile_name = r.config->stages_name = "UNDEFINED";
    const auto [c, words] = measured(m, "bias-single-output", call);
    r.certainty = c;
    r.basis = "a bias-epilogue call with M = 1: the GEMV kernel, a rule " + words;
  } else if (call.bias) {
    const auto [c, words] = measured(m, "bias", call);
    r.basis = "a bias-epilogue call: " + r.basis + "; the answer without the epilogue, a rule " + words;
    r.certainty = std::min(r.certainty, c);
  }
  return r;
}

}  // namespace mmaemu::api
