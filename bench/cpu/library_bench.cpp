#include "bench/cpu/library_bench.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "bench/gemm_inputs.hpp"
#include "harness/core/errors.hpp"
#include "kernels/cpu/threads.hpp"

namespace mmaemu::bench {
namespace {

std::string algo_label(int algorithm) { return algorithm < 0 ? "default" : std::to_string(algorithm); }

ref::LibraryCall call_of(ref::FormatId format, const kernels::GemmShape& s) {
  ref::LibraryCall call;
  call.a = call.b = format;
  call.c = call.d = ref::FormatId::fp32;
  call.M = s.M;
  call.N = s.N;
  call.K = s.K;
  call.beta = 1.0f;  // D = A*B + C, as the native rows (bench/cublaslt_gemm.hpp) compute it
  return call;
}

// Every call must be one the model computes: an InputError before anything is timed.
void check_calls(const LibraryBenchOptions& o) {
  if (o.formats.empty() || o.shapes.empty() || o.split_k.empty() || o.engines.empty())
    throw InputError("library section", "needs at least one format, shape, split_k and engine");
  for (ref::FormatId f : o.formats)
    for (const kernels::GemmShape& s : o.shapes) {
      if (s.batch != 1) throw InputError("library section", "shapes are single GEMMs (batch 1): " + shape_name(s));
      const ref::LibraryCall call = call_of(f, s);
      if (auto why = ref::library_refuses(call))
        throw InputError("library section", std::string(ref::format_name(f)) + " " + shape_name(s) + ": " + why->detail);
      for (int k : o.split_k) {
        ref::LibraryAlgo algo;
        algo.split_k = k;
        algo.algo_id = o.algorithm;
        if (auto why = ref::model_declines(algo)) throw InputError("library section", why->detail);
        try {
          (void)kernels::library_params(call, algo);
        } catch (const std::invalid_argument& e) {
          throw InputError("library section", std::string(ref::format_name(f)) + " " + shape_name(s) + " split-K " +
                                                  std::to_string(k) + ": " + e.what());
        }
      }
    }
}

}  // namespace

std::string LibraryRow::key() const {
  const std::string threads_part = all_threads ? "" : "/t" + std::to_string(threads);
  if (engine == kLibraryCpuBlas) return "library/" + engine + "/" + shape + threads_part;
  return "library/" + format + "/" + shape + "/algo" + algo_label(algorithm) + "/sk" + std::to_string(split_k) + "/" +
         engine + threads_part;
}

std::vector<LibraryRow> run_library_bench(const LibraryBenchOptions& o, const BenchProgress& progress) {
  check_calls(o);
  std::vector<LibraryRow> rows;
  size_t per_call = o.native ? 1 : 0;
  for (kernels::LibraryEngine e : o.engines) per_call += e == kernels::LibraryEngine::cuda ? 1 : o.cpu_threads.size();
  const size_t total = o.formats.size() * o.shapes.size() * o.split_k.size() * per_call +
                       (o.cpu_blas ? o.cpu_threads.size() : 0);
  size_t done = 0;
  auto step = [&](const std::string& what) {
    if (progress) progress(done, total, what);
  };
  for (ref::FormatId f : o.formats)
    for (const kernels::GemmShape& s : o.shapes) {
      const std::string label = std::string(ref::format_name(f)) + " " + shape_name(s);
      step(label + ": generating operands");
      const HostOperands ops = realistic_operands(f, f, ref::FormatId::fp32, s, o.seed);
      const double macs = static_cast<double>(s.M) * s.N * s.K;
      // cuBLASLt's rate does not depend on the model's split-K: one native timing per call shape.
      std::optional<NativeLibraryRate> native;
      for (int k : o.split_k) {
        const ref::LibraryCall call = call_of(f, s);
        ref::LibraryAlgo algo;
        algo.split_k = k;
        algo.algo_id = o.algorithm;
        auto base_row = [&](std::string engine) {
          LibraryRow row;
          row.format = std::string(ref::format_name(f));
          row.shape = shape_name(s);
          row.algorithm = o.algorithm;
          row.split_k = k;
          row.engine = std::move(engine);
          return row;
        };
        std::vector<uint32_t> first_d;
        std::string first_engine;
        std::vector<size_t> measured;  // indices into rows of this call's measured engine rows
        for (kernels::LibraryEngine e : o.engines)
        for (int t : e == kernels::LibraryEngine::cuda ? std::vector<int>{0} : o.cpu_threads) {
          LibraryRow row = base_row(std::string(kernels::library_engine_name(e)));
          step(label + " split-K " + std::to_string(k) + ": " + row.engine);
          if (e == kernels::LibraryEngine::cuda) {
            row.threads = 0;
          } else {
            kernels::cpu::set_threads(t);
            row.threads = kernels::cpu::threads();
            row.all_threads = t == 0;
          }
          if (auto why = kernels::library_engine_declines(e)) {
            row.status = "declined";
            row.reason = why->detail;
          } else if (const auto [limit, key] = e == kernels::LibraryEngine::cpu
                                                    ? std::pair{o.lanes_max_macs, "lanes_max_macs"}
                                                    : std::pair{o.cpu_max_macs, "cpu_max_macs"};
                     e != kernels::LibraryEngine::cuda && limit > 0 && macs > limit) {
            row.status = "skipped";
            row.reason = std::string("larger than the CPU engine's limit (") + key + " " +
                         std::to_string(static_cast<long long>(limit)) + ")";
          } else {
            try {
              std::vector<uint32_t> d(s.M * s.N, kernels::kPoison);
              // The first call untimed: page faults, thread start-up, a GPU context.
              std::vector<double> seconds;
              if (e == kernels::LibraryEngine::cuda) {
                seconds = kernels::library_gemm_cuda_resident(call, algo, ops.a.data(), ops.b.data(), ops.c.data(),
                                                              d.data(), o.repetitions + 1);
              } else {
                for (int r = 0; r <= o.repetitions; ++r) {
                  const auto start = std::chrono::steady_clock::now();
                  kernels::library_gemm(e, call, algo, ops.a.data(), ops.b.data(), ops.c.data(), d.data());
                  seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
                }
              }
              std::vector<double> rates;
              for (size_t r = 1; r < seconds.size(); ++r) rates.push_back(macs / std::max(seconds[r], 1e-9) / 1e9);
              if (first_engine.empty()) {
                first_d = d;
                first_engine = row.engine;
              }
              const auto diff = std::mismatch(d.begin(), d.end(), first_d.begin());
              if (diff.first != d.end()) {
                const size_t i = static_cast<size_t>(diff.first - d.begin());
                row.status = "error";
                row.reason = "D differs from " + first_engine + "'s at output " + std::to_string(i) + " (row " +
                             std::to_string(i / s.N) + ", column " + std::to_string(i % s.N) + ")";
              } else {
                row.status = "measured";
                row.gmacs = summarize(rates);
                measured.push_back(rows.size());
              }
            } catch (const std::exception& ex) {
              row.status = "error";
              row.reason = ex.what();
            }
          }
          kernels::cpu::set_threads(0);
          rows.push_back(std::move(row));
          ++done;
        }
        if (!o.native) continue;
        if (!native) {
          step(label + ": cuBLASLt");
          native = o.native(f, s);
        }
        LibraryRow row = base_row(kLibraryNative);
        row.threads = 0;
        if (native->tmacs) {
          row.status = "measured";
          SampleStats g = *native->tmacs;
          for (double* v : {&g.median, &g.min, &g.max, &g.p10, &g.p90}) *v *= 1000;  // TMAC/s -> GMAC/s
          row.gmacs = g;
          row.algorithm_ran = native->algorithm;
          for (size_t i : measured) rows[i].vs_native = rows[i].gmacs->median / g.median;
        } else {
          row.status = "skipped";
          row.reason = native->why;
        }
        rows.push_back(std::move(row));
        ++done;
      }
    }
  // The CPU's own sgemm at every shape and thread count: one row each, and each CPU engine row's ratio.
  if (o.cpu_blas)
    for (int t : o.cpu_threads) {
      step("sgemm on " + (t ? std::to_string(t) + " thread(s)" : std::string("every thread")));
      kernels::cpu::set_threads(t);
      const int threads = kernels::cpu::threads();
      kernels::cpu::set_threads(0);
      const CpuBlasRates rates = o.cpu_blas(o.shapes, threads);
      for (const kernels::GemmShape& s : o.shapes) {
        LibraryRow row;
        row.format = "fp32";
        row.shape = shape_name(s);
        row.engine = kLibraryCpuBlas;
        row.threads = threads;
        row.all_threads = t == 0;
        const auto it = rates.gmacs.find(row.shape);
        if (it == rates.gmacs.end()) {
          row.status = "skipped";
          row.reason = rates.why.empty() ? "no rate for this shape" : rates.why;
        } else {
          row.status = "measured";
          row.gmacs = it->second;
          row.algorithm_ran = rates.name;
          for (LibraryRow& r : rows)
            if (r.engine != kLibraryNative && r.engine != "cuda" && r.gmacs && r.shape == row.shape &&
                r.threads == row.threads && r.all_threads == row.all_threads)
              r.vs_cpu_blas = r.gmacs->median / it->second.median;
        }
        rows.push_back(std::move(row));
      }
      ++done;
    }
  if (progress) progress(total, total, "done");
  return rows;
}

}  // namespace mmaemu::bench
