#include "bench/cpu/cpu_blas.hpp"

#include <nlohmann/json.hpp>

#include "bench/gemm_inputs.hpp"
#include "bench/cpu/python_script.hpp"

namespace mmaemu::bench {

CpuBlasTimer python_sgemm_timer(PythonSgemmOptions o) {
  return [o](const std::vector<kernels::GemmShape>& shapes, int threads) {
    CpuBlasRates r;
    const std::filesystem::path dir = o.scratch / ("sgemm-t" + std::to_string(threads));
    PythonScript script;
    script.python = o.python;
    script.result = std::filesystem::absolute(dir / "result.json");
    script.argv = {std::filesystem::absolute(o.script).string(), "--out", script.result.string(), "--repetitions",
                   std::to_string(o.repetitions)};
    for (const kernels::GemmShape& s : shapes) script.argv.insert(script.argv.end(), {"--shape", shape_name(s)});
    script.dir = dir;
    script.log_name = "sgemm.log";
    const std::string t = std::to_string(threads);
    script.environment = {{"OPENBLAS_NUM_THREADS", t}, {"OMP_NUM_THREADS", t}, {"MKL_NUM_THREADS", t}};
    script.timeout_seconds = o.timeout_seconds;
    script.what = "numpy's sgemm";
    script.required_key = "seconds";
    const PythonScriptOutcome run = run_python_script(script);
    if (run.end != PythonScriptOutcome::End::ran) {
      r.why = run.why;
      return r;
    }
    const nlohmann::json& result = run.result;
    for (const kernels::GemmShape& s : shapes) {
      const std::string name = shape_name(s);
      if (!result["seconds"].contains(name)) continue;
      const double macs = static_cast<double>(s.M) * s.N * s.K;
      std::vector<double> seconds = result["seconds"][name].get<std::vector<double>>();
      if (!seconds.empty()) r.gmacs[name] = rate_of(summarize(seconds), macs / 1e9);
    }
    r.name = "numpy " + result.value("numpy", std::string("?")) + ", " + result.value("blas", std::string("?"));
    return r;
  };
}

}  // namespace mmaemu::bench
