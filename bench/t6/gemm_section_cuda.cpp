// The GPU part of T6 with CUDA: the tier's gemm section as options of the GEMM benchmark.
#include "bench/cublaslt_gemm.hpp"
#include "bench/cuda_support.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/gemm_report.hpp"
#include "bench/t6/gemm_section.hpp"
#include "kernels/cuda/cuda_device.hpp"

namespace mmaemu::t6 {
namespace {

bench::GemmBenchOptions options_of(const GemmSpec& g, const std::string& command) {
  bench::GemmBenchOptions o;
  o.arch = g.arch;
  o.family = g.family;
  o.formats = g.formats;
  o.shapes = g.shapes;
  o.warmup = g.warmup;
  o.samples = g.samples;
  o.seed = g.seed;
  o.native = g.native;
  o.command = command;
  o.backends.clear();
  for (const GemmBackendSpec& b : g.backends) {
    o.backends.push_back(b.name);
    if (b.max_case_seconds) o.max_case_seconds[b.name] = *b.max_case_seconds;
    if (b.n) o.instruction_n[b.name] = b.n;
  }
  return o;
}

// Cases the progress counts: every backend and native row of every shape and format.
size_t case_count(const bench::GemmBenchOptions& o) {
  size_t per_format = 0;
  for (ref::FormatId f : o.formats)
    per_format += o.backends.size() + (o.native ? (bench::has_fast_accum_variant(f) ? 2 : 1) : 0);
  return per_format * o.shapes.size();
}

GemmPoint point_of(const bench::BenchRow& r) {
  GemmPoint p;
  p.format = std::string(ref::format_name(r.format));
  p.backend = r.backend;
  p.shape = bench::shape_name(r.shape);
  p.macs = static_cast<double>(r.shape.batch) * r.shape.M * r.shape.N * r.shape.K;
  p.square = r.shape.M == r.shape.N && r.shape.N == r.shape.K;
  p.native = r.native;
  p.status = r.status;
  p.reason = r.reason;
  p.tmacs = r.tmacs;
  p.ratio = r.ratio;
  return p;
}

}  // namespace

bench::NativeLibraryTimer native_library_timer() {
  return [](ref::FormatId format, const kernels::GemmShape& shape) {
    bench::NativeLibraryRate r;
    if (const Declined none = kernels::cuda_device_declines()) {
      r.why = none->detail;
      return r;
    }
    try {
      bench::L2Flusher flusher(0);
      bench::OperandCache operands;
      const bench::NativeTiming t = bench::time_cublaslt({format}, shape, operands, 1, 2, 10, flusher);
      if (t.unsupported) {
        r.why = *t.unsupported;
        return r;
      }
      const double macs = static_cast<double>(shape.batch) * shape.M * shape.N * shape.K;
      r.tmacs = bench::rate_of(bench::summarize(t.samples_ms), macs / 1e9);  // MACs per ms / 1e9 = TMAC/s
      r.algorithm = t.algorithm;
    } catch (const std::exception& e) {
      r.why = e.what();
    }
    return r;
  };
}

GemmSectionResult run_gemm_section(const GemmSpec& spec, const std::string& command,
                                   const bench::BenchProgress& progress) {
  GemmSectionResult out;
  if (const Declined none = kernels::cuda_device_declines()) {
    out.skipped = none->detail;
    return out;
  }
  const bench::GemmBenchOptions o = options_of(spec, command);
  const size_t total = case_count(o);
  size_t started = 0;
  // The benchmark says what it starts; every step but operand generation starts a row.
  auto say = [&](const bench::BenchStep& step) {
    if (step.starts_row) ++started;
    if (progress) progress(started == 0 ? 0 : started - 1, total, step.what);
  };
  const bench::GemmBenchResult r = bench::run_gemm_bench(o, say);
  if (progress) progress(total, total, "done");
  out.report = bench::gemm_report_json(r, o);
  out.markdown = bench::gemm_report_markdown(r);
  for (const bench::BenchRow& row : r.rows) out.points.push_back(point_of(row));
  out.any_error = r.any_error();
  out.interrupted = r.interrupted;
  return out;
}

}  // namespace mmaemu::t6
