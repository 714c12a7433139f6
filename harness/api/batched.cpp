#include "harness/api/batched.hpp"

#include <cstdio>
#include <mutex>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu::api {

const BatchedCertainty& batched_certainty(const std::filesystem::path& resolver_file) {
  static std::mutex mutex;
  static std::map<std::filesystem::path, BatchedCertainty> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  const std::filesystem::path file = resolver_file.parent_path() / "batched.json";
  if (auto it = loaded.find(file); it != loaded.end()) return it->second;
  BatchedCertainty b;
  if (std::filesystem::exists(file)) {
    const std::string where = file.string();
    try {
      const nlohmann::json j = nlohmann::json::parse(read_input_file(file, "the batched rule's measurement"));
      if (j.value("schema", "") != "mmaemu-cublaslt-batched/1")
        throw InputError(where, "schema is not mmaemu-cublaslt-batched/1");
      b.source = j.at("source").get<std::string>();
      for (const auto& [type, m] : j.at("types").items())
        b.by_type[type] = {m.at("calls").get<size_t>(), m.at("same_arithmetic").get<size_t>()};
    } catch (const nlohmann::json::exception& e) {
      throw InputError(where, std::string("not a batched rule's measurement: ") + e.what());
    }
  }
  return loaded.emplace(file, std::move(b)).first->second;
}

lt::Resolution resolve_batched(const lt::Resolution& single, const lt::LtCall& call, const BatchedCertainty& measured) {
  lt::Resolution r = single;
  if (!r.config) return r;
  r.config->split_k = 1;
  r.config->reduction = 0;
  r.config->workspace = 0;
  const auto it = measured.by_type.find(std::string(ref::format_name(call.a)));
  if (it == measured.by_type.end() || it->second.calls == 0) {
    r.certainty = 0;
    r.basis = "a batched call: the single call's answer without split-K, a rule not measured for " +
              std::string(ref::format_name(call.a));
    return r;
  }
  const auto& m = it->second;
  r.certainty = static_cast<double>(m.same_arithmetic) / static_cast<double>(m.calls);
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100 * r.certainty);
  r.basis = "a batched call: the single call's answer without split-K, whose arithmetic is the logged configuration's in " +
            std::to_string(m.same_arithmetic) + " of " + std::to_string(m.calls) + " recorded " +
            std::string(ref::format_name(call.a)) + " batched calls (" + pct + ", " + measured.source + ")";
  return r;
}

}  // namespace mmaemu::api
