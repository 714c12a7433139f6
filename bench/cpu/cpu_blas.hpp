// The CPU's own sgemm, the rate a user holds the library model's CPU engines against: numpy's float32
// matmul (the BLAS numpy links, OpenBLAS in its wheels) in a child Python running bench/cpu/sgemm_rate.py,
// on a given number of threads (the BLAS's thread variables set before the interpreter starts). Where the
// interpreter or numpy is missing, the rate is absent with the reason.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/sample_stats.hpp"
#include "kernels/backend.hpp"

namespace mmaemu::bench {

struct CpuBlasRates {
  std::map<std::string, SampleStats> gmacs;  // by shape name (MxNxK): giga multiply-adds per second
  std::string why;                           // no rates: why
  std::string name;                          // "numpy 2.4.6, scipy-openblas 0.3.31"
};
// Rates at every shape on `threads` threads.
using CpuBlasTimer = std::function<CpuBlasRates(const std::vector<kernels::GemmShape>& shapes, int threads)>;

struct PythonSgemmOptions {
  std::string python = "python3";  // MMAEMU_PYTHON overrides it
  std::filesystem::path script;    // bench/cpu/sgemm_rate.py
  std::filesystem::path scratch;   // its results and logs
  int repetitions = 3;
  double timeout_seconds = 600;
};
CpuBlasTimer python_sgemm_timer(PythonSgemmOptions options);

}  // namespace mmaemu::bench
