#include "bench/cpu/cpu_blas.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#include "bench/gemm_inputs.hpp"
#include "harness/core/child_process.hpp"
#include "harness/core/interrupt_guard.hpp"

namespace mmaemu::bench {

CpuBlasTimer python_sgemm_timer(PythonSgemmOptions o) {
  return [o](const std::vector<kernels::GemmShape>& shapes, int threads) {
    CpuBlasRates r;
    const char* env = std::getenv("MMAEMU_PYTHON");
    const std::string python = env && *env ? env : o.python;
    const std::filesystem::path dir = o.scratch / ("sgemm-t" + std::to_string(threads));
    std::filesystem::create_directories(dir);
    const std::filesystem::path out = std::filesystem::absolute(dir / "result.json");
    std::filesystem::remove(out);
    ChildRequest request;
    request.argv = {python, std::filesystem::absolute(o.script).string(), "--out", out.string(), "--repetitions",
                    std::to_string(o.repetitions)};
    for (const kernels::GemmShape& s : shapes) request.argv.insert(request.argv.end(), {"--shape", shape_name(s)});
    request.workdir = dir;
    request.log = dir / "sgemm.log";
    const std::string t = std::to_string(threads);
    request.environment = {{"OPENBLAS_NUM_THREADS", t}, {"OMP_NUM_THREADS", t}, {"MKL_NUM_THREADS", t}};
    request.timeout_seconds = o.timeout_seconds;
    const ChildResult c = run_child(request, interrupt_flag());
    nlohmann::json result;
    if (std::ifstream in(out); in) result = nlohmann::json::parse(in, nullptr, false);
    if (c.end == ChildResult::End::not_started) {
      r.why = "no Python to run numpy's sgemm (" + python + ": " + c.error + "; set MMAEMU_PYTHON)";
      return r;
    }
    if (result.is_object() && result.contains("skipped")) {
      r.why = result["skipped"].get<std::string>();
      return r;
    }
    if (c.end != ChildResult::End::exited || c.exit_code != 0 || !result.is_object() || !result.contains("seconds")) {
      r.why = "numpy's sgemm failed (exit " + std::to_string(c.exit_code) + "; log: " + request.log.string() + ")";
      return r;
    }
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
