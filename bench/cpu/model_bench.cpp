#include "bench/cpu/model_bench.hpp"

#include <nlohmann/json.hpp>


#include "bench/cpu/python_script.hpp"
#include "harness/core/errors.hpp"

namespace mmaemu::bench {
namespace {

namespace fs = std::filesystem;

// Every row of one device's child run, or one skipped/error row per model and mode saying why none ran.
std::vector<ModelRow> run_device(const ModelBenchOptions& o, const std::string& device) {
  const std::string backend = device == "cpu" ? "cpu" : "cuda";
  const fs::path dir = o.scratch / device;
  PythonScript script;
  script.python = o.python;
  script.result = fs::absolute(dir / "result.json");
  script.argv = {fs::absolute(o.script).string(), "--device", device, "--backend", backend, "--repetitions",
                 std::to_string(o.repetitions), "--out", script.result.string()};
  for (const std::string& m : o.models) script.argv.insert(script.argv.end(), {"--model", m});
  script.dir = dir;
  script.log_name = "model.log";
  script.timeout_seconds = o.timeout_seconds;
  script.what = "the models";
  script.required_key = "rows";
  const PythonScriptOutcome run = run_python_script(script);
  if (run.end != PythonScriptOutcome::End::ran) {
    std::vector<ModelRow> rows;
    const std::string status = run.end == PythonScriptOutcome::End::skipped ? "skipped" : "error";
    for (const std::string& m : o.models)
      for (const std::string& mode : {std::string("native"), "emulate:" + backend})
        rows.push_back({m, device, mode, status, run.why});
    return rows;
  }
  const nlohmann::json& result = run.result;
  const fs::path out = script.result;
  std::vector<ModelRow> rows;
  const std::string versions = "torch " + result.value("torch", std::string("?")) + ", transformers " +
                               (result["transformers"].is_string() ? result["transformers"].get<std::string>() : "-") +
                               ", python " + result.value("python", std::string("?"));
  for (const auto& r : result["rows"]) {
    ModelRow row{r.value("model", ""), r.value("device", device), r.value("mode", "")};
    row.versions = versions;
    if (r.contains("skipped")) {
      row.status = "skipped";
      row.reason = r["skipped"].get<std::string>();
      rows.push_back(std::move(row));
      continue;
    }
    row.tokens = r.value("tokens", size_t{0});
    row.seconds = r.value("seconds", std::vector<double>{});
    row.calls = r.value("calls", size_t{0});
    row.native_calls = r.value("native_calls", size_t{0});
    row.matmul_seconds = r.value("matmul_seconds", 0.0);
    if (r.contains("equal_to_native") && r["equal_to_native"].is_boolean()) row.equal_to_native = r["equal_to_native"].get<bool>();
    if (row.seconds.empty() || row.tokens == 0) {
      row.status = "error";
      row.reason = "no timings in " + out.string();
    } else {
      row.status = "measured";
      row.rate = rate_of(summarize(row.seconds), static_cast<double>(row.tokens));
      if (row.native_calls) row.reason = std::to_string(row.native_calls) + " call(s) per forward ran natively";
    }
    rows.push_back(std::move(row));
  }
  // Each emulated row's slowdown over its model's native row on the same device.
  for (ModelRow& e : rows) {
    if (e.mode == "native" || !e.rate) continue;
    for (const ModelRow& n : rows)
      if (n.model == e.model && n.mode == "native" && n.rate) e.slowdown = n.rate->median / e.rate->median;
  }
  return rows;
}

}  // namespace

std::string ModelRow::key() const { return "model/" + model + "/" + device + "/" + mode; }

std::vector<ModelRow> run_model_bench(const ModelBenchOptions& o, const BenchProgress& progress) {
  if (o.models.empty()) throw InputError("model section", "no model given");
  if (o.repetitions < 1) throw InputError("model section", "repetitions must be at least 1");
  std::vector<ModelRow> rows;
  size_t done = 0;
  for (const std::string& device : o.devices) {
    if (progress) progress(done, o.devices.size(), "models on " + device);
    for (ModelRow& r : run_device(o, device)) rows.push_back(std::move(r));
    ++done;
  }
  if (progress) progress(done, o.devices.size(), "done");
  return rows;
}

}  // namespace mmaemu::bench
