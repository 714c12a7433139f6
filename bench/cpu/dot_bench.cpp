#include "bench/cpu/dot_bench.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "harness/core/errors.hpp"
#include "bench/cpu/dot_cases.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::bench {
namespace {

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

// Why the oracle and the kernels' arithmetic disagree on this batch, or "" when they agree: a
// benchmark that times two implementations giving different bits compares unlike things.
std::string disagreement(const DotCase& dc, const DotBatch& batch) {
  std::vector<uint32_t> r(batch.count), h(batch.count);
  reference_blocks(dc, batch, r.data());
  host_blocks(dc, batch, h.data());
  for (size_t i = 0; i < batch.count; ++i)
    if (r[i] != h[i])
      return "the kernels' arithmetic differs from the reference on block " + std::to_string(i) + " of the batch: " +
             "expected " + hex(r[i]) + ", got " + hex(h[i]);
  return "";
}

// The same for the cpu backend, on the batch's GEMM form, against the reference backend on it.
std::string cpu_disagreement(const DotCase& dc, const DotGemm& g) {
  const size_t outputs = kernels::c_count(g.shape);
  std::vector<uint32_t> r(outputs), c(outputs, kernels::kPoison);
  backend_blocks("reference", dc, g, r.data());
  backend_blocks(kDotCpu, dc, g, c.data());
  for (size_t i = 0; i < outputs; ++i)
    if (r[i] != c[i])
      return "the cpu backend differs from the reference on output " + std::to_string(i) + " of the batch's GEMM: " +
             "expected " + hex(r[i]) + ", got " + hex(c[i]);
  return "";
}

// Collects the rate of every repetition and writes Google Benchmark's own JSON beside.
class Collector : public benchmark::BenchmarkReporter {
 public:
  Collector(size_t total, const BenchProgress& progress) : total_(total), progress_(progress) {
    json_.SetOutputStream(&json_text_);
    json_.SetErrorStream(&json_errors_);
  }
  bool ReportContext(const Context& context) override { return json_.ReportContext(context); }
  void ReportRuns(const std::vector<Run>& runs) override {
    json_.ReportRuns(runs);
    std::string name;
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      name = run.run_name.function_name;
      if (run.error_occurred) {
        errors[name] = run.error_message;
        continue;
      }
      const auto it = run.counters.find("items_per_second");
      if (it != run.counters.end()) rates[name].push_back(it->second.value);
    }
    if (progress_) progress_(++done_, total_, name);
  }
  void Finalize() override { json_.Finalize(); }
  std::string json() const { return json_text_.str(); }

  std::map<std::string, std::vector<double>> rates;
  std::map<std::string, std::string> errors;

 private:
  benchmark::JSONReporter json_;
  std::ostringstream json_text_, json_errors_;
  size_t total_, done_ = 0;
  const BenchProgress& progress_;
};

void initialise_google_benchmark() {
  static std::once_flag once;
  std::call_once(once, [] {
    static char program[] = "mmaemu";
    static char* argv[] = {program, nullptr};
    int argc = 1;
    benchmark::Initialize(&argc, argv);
  });
}

// One benchmark to register: its name (also its row's key) and the loop it times.
struct Planned {
  std::string name;
  int threads;
  std::function<void(benchmark::State&)> body;
};

template <class Out, class Loop>
std::function<void(benchmark::State&)> timed(std::shared_ptr<const DotBatch> batch, Loop loop) {
  return [batch, loop](benchmark::State& st) {
    std::vector<Out> d(batch->count);
    for (auto _ : st) {
      loop(*batch, d.data());
      benchmark::DoNotOptimize(d.data());
      benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(batch->count));
  };
}

// The cpu backend's loop, as the other rows' are: every Google Benchmark thread calls the backend on its
// batch's GEMM, the backend held to one thread of its own (a batch is tens of microseconds of work:
// its own threads would time their start-up; the mmasim section times them on larger batches).
std::function<void(benchmark::State&)> timed_cpu(std::shared_ptr<const DotGemm> g, const DotCase& dc) {
  return [g, dc](benchmark::State& st) {
    std::vector<uint32_t> d(kernels::c_count(g->shape));
    kernels::cpu::set_threads(1);
    for (auto _ : st) {
      backend_blocks(kDotCpu, dc, *g, d.data());
      benchmark::DoNotOptimize(d.data());
      benchmark::ClobberMemory();
    }
    if (st.thread_index() == 0) kernels::cpu::set_threads(0);
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(g->blocks));
  };
}

}  // namespace

std::string DotRow::key() const {
  const std::string t = all_threads ? "t-all" : "t" + std::to_string(threads);
  if (implementation == kDotFloat) return "dot/float/L" + std::to_string(L) + "/" + t;
  return "dot/" + arch + "/" + format + "/" + implementation + "/" + t;
}

bool DotBenchResult::any_error() const {
  for (const auto& r : rows)
    if (r.status == "error") return true;
  return false;
}

DotBenchResult run_dot_bench(const DotBenchOptions& o, const BenchProgress& progress) {
  if (o.repetitions < 1) throw InputError("", "repetitions must be at least 1");
  if (o.batch < 1) throw InputError("", "batch must be at least 1");
  DotBenchResult result;
  result.hardware_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // The thread counts, each once: "every thread" on a one-thread machine is one thread.
  std::vector<std::pair<int, bool>> thread_counts;
  for (int t : o.threads) {
    const std::pair<int, bool> tc = t == 0 ? std::pair{result.hardware_threads, true} : std::pair{t, false};
    bool seen = false;
    for (const auto& x : thread_counts) seen = seen || x.first == tc.first;
    if (!seen) thread_counts.push_back(tc);
  }

  std::vector<Planned> planned;
  std::map<int, std::shared_ptr<const DotBatch>> float_batches;  // one float loop per block length
  std::vector<DotRow> rows;
  for (ref::Arch arch : o.archs)
    for (ref::FormatId format : o.formats) {
      const std::optional<DotCase> dc = dot_case(arch, format);
      if (!dc) continue;
      auto batch = std::make_shared<const DotBatch>(make_batch(*dc, o.batch, o.seed));
      const std::string why = disagreement(*dc, *batch);
      auto gemm = std::make_shared<const DotGemm>(gemm_form(*dc, *batch));
      const std::string cpu_why = cpu_disagreement(*dc, *gemm);
      float_batches.try_emplace(dc->L, batch);
      for (const char* impl : {kDotReference, kDotHost, kDotCpu})
        for (const auto& [threads, all] : thread_counts) {
          DotRow row;
          row.arch = std::string(ref::arch_name(arch));
          row.format = std::string(ref::format_name(format));
          row.instruction = dc->model->instr.name;
          row.L = dc->L;
          row.implementation = impl;
          row.threads = threads;
          row.all_threads = all;
          const std::string& row_why = std::string(impl) == kDotCpu ? cpu_why : why;
          if (!row_why.empty()) {
            row.status = "error";
            row.reason = row_why;
          } else if (std::string(impl) == kDotCpu) {
            planned.push_back({row.key(), threads, timed_cpu(gemm, *dc)});
          } else {
            const DotCase c = *dc;
            auto body = std::string(impl) == kDotReference
                            ? timed<uint32_t>(batch, [c](const DotBatch& b, uint32_t* d) { reference_blocks(c, b, d); })
                            : timed<uint32_t>(batch, [c](const DotBatch& b, uint32_t* d) { host_blocks(c, b, d); });
            planned.push_back({row.key(), threads, std::move(body)});
          }
          rows.push_back(std::move(row));
        }
    }
  if (rows.empty()) throw InputError("", "no profile among those named has a tensor-core block in the formats named");
  for (const auto& [L, batch] : float_batches)
    for (const auto& [threads, all] : thread_counts) {
      DotRow row;
      row.L = L;
      row.implementation = kDotFloat;
      row.threads = threads;
      row.all_threads = all;
      planned.push_back({row.key(), threads, timed<float>(batch, [](const DotBatch& b, float* d) { float_blocks(b, d); })});
      rows.push_back(std::move(row));
    }

  initialise_google_benchmark();
  benchmark::ClearRegisteredBenchmarks();
  for (const Planned& p : planned)
    benchmark::RegisterBenchmark(p.name.c_str(), p.body)
        ->MinTime(o.min_seconds)
        ->Repetitions(o.repetitions)
        ->Threads(p.threads)
        ->UseRealTime();  // with several threads, items of all threads over the wall time
  Collector collector(planned.size(), progress);
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  result.gbench_json = collector.json();

  std::map<std::string, double> float_median;
  for (DotRow& row : rows) {
    if (row.status == "error") continue;
    const std::string key = row.key();
    if (auto e = collector.errors.find(key); e != collector.errors.end()) {
      row.status = "error";
      row.reason = e->second;
    } else if (auto r = collector.rates.find(key); r != collector.rates.end() && !r->second.empty()) {
      row.status = "measured";
      row.samples = r->second;
      row.rate = summarize(row.samples);
      if (row.implementation == kDotFloat) float_median[key] = row.rate->median;
    } else {
      row.status = "error";
      row.reason = "Google Benchmark reported no run";
    }
  }
  for (DotRow& row : rows) {
    if (row.implementation == kDotFloat || !row.rate) continue;
    DotRow f;
    f.implementation = kDotFloat;
    f.L = row.L;
    f.threads = row.threads;
    f.all_threads = row.all_threads;
    if (auto it = float_median.find(f.key()); it != float_median.end() && it->second > 0) {
      row.float_rate = it->second;
      row.float_ratio = row.rate->median / it->second;
    }
  }
  result.rows = std::move(rows);
  return result;
}

}  // namespace mmaemu::bench
