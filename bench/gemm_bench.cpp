#include "bench/gemm_bench.hpp"

#include <cstdio>
#include <cstdlib>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "bench/backend_gemm.hpp"
#include "bench/cublaslt_gemm.hpp"
#include "harness/record/provenance.hpp"
#include "kernels/cuda/cuda_device.hpp"

#ifndef MMAEMU_BENCH_GIT_COMMIT
#define MMAEMU_BENCH_GIT_COMMIT "unknown"
#endif

namespace mmaemu::bench {
namespace {

constexpr const char* kTimedViaBackend = "Backend::run, RunInfo::kernel_ms (CUDA events around the kernel alone)";
constexpr const char* kTimedViaNative = "CUDA events around cublasLtMatmul alone";

double macs_of(const kernels::GemmShape& s) { return static_cast<double>(s.batch) * s.M * s.N * s.K; }

void fill_measurement(BenchRow& row, std::vector<double> samples_ms) {
  row.status = "measured";
  row.samples_ms = std::move(samples_ms);
  row.ms = summarize(row.samples_ms);
  // TMAC/s = MACs / seconds / 1e12 = MACs / (ms * 1e9).
  row.tmacs = rate_of(*row.ms, macs_of(row.shape) / 1e9);
}

void validate(const GemmBenchOptions& o) {
  if (o.samples < 1) throw InputError("--samples", "must be at least 1");
  if (o.warmup < 0) throw InputError("--warmup", "must not be negative");
  if (o.shapes.empty()) throw InputError("--shape", "no shape given");
  if (o.formats.empty()) throw InputError("--format", "no format given");
  if (!(o.bandwidth_tbs > 0)) throw InputError("--bandwidth-tbs", "must be positive");
  for (const auto& [backend, seconds] : o.max_case_seconds)
    if (!(seconds > 0)) throw InputError("max_case_seconds", backend + ": must be positive");
  // Every (arch, family, format) must name an instruction before any GPU time is spent.
  for (auto f : o.formats) {
    bench_model(o.arch, o.family, f);
    for (const auto& [backend, n] : o.instruction_n) bench_model(o.arch, o.family, f, n);
  }
}

class Bench {
 public:
  Bench(const GemmBenchOptions& o, const BenchStepFn& progress, GemmBenchResult& r)
      : o_(o), progress_(progress), r_(r), flusher_(o.device) {}

  void run_case(const kernels::GemmShape& shape, ref::FormatId format) {
    const std::string label = shape_name(shape) + " " + std::string(ref::format_name(format));
    std::optional<double> native, native_fast;
    if (o_.native) {
      native = run_native(shape, format, false, label);
      if (has_fast_accum_variant(format)) native_fast = run_native(shape, format, true, label);
    }
    const ref::Instruction& types = bench_model(o_.arch, o_.family, format).instr;  // every backend's N has these types
    say(label + ": generating operands", /*starts_row=*/false);
    const HostOperands& ops = operands_.get(types.a, types.b, types.c, shape, o_.seed);
    for (const auto& name : o_.backends) {
      say(label + ": " + name);
      const auto n = o_.instruction_n.find(name);
      const ref::InstructionModel& model =
          bench_model(o_.arch, o_.family, format, n == o_.instruction_n.end() ? 0 : n->second);
      BenchRow row = base_row(shape, format, name, false);
      row.instruction = std::string(ref::arch_name(o_.arch)) + " " + model.instr.name;
      row.timed_via = kTimedViaBackend;
      try {
        const std::optional<double> budget = budget_of(name);
        if (const auto estimate = estimated_seconds(name, format, shape); budget && estimate && *estimate > *budget) {
          skip_over_budget(row, *estimate, *budget);
          r_.rows.push_back(std::move(row));
          continue;
        }
        BackendTiming t = time_backend(name, model, shape, ops, o_.warmup, o_.samples, flusher_, budget);
        row.wall_seconds = t.wall_seconds;
        row.operands = t.operands;
        if (t.runs > 0) note_pace(name, format, shape, t.wall_seconds / t.runs);
        if (t.declined) {
          row.status = "declined";
          row.reason = t.declined->detail;
        } else if (t.over_budget) {
          skip_over_budget(row, *t.over_budget, *budget);
        } else {
          fill_measurement(row, std::move(t.samples_ms));
          const Engine engine = name == "tc" ? Engine::tensor_cores : Engine::cuda_cores;
          row.floor = floor_note(shape, model.instr.a, model.instr.b, model.instr.c, engine, row.ms->median,
                                 r_.ceilings);
          row.native_tmacs = native;
          row.native_fast_tmacs = native_fast;
          if (native) row.ratio = row.tmacs->median / *native;
          if (native_fast) row.ratio_fast = row.tmacs->median / *native_fast;
        }
      } catch (const std::exception& e) {
        row.status = "error";
        row.reason = e.what();
      }
      r_.rows.push_back(std::move(row));
    }
  }

 private:
  std::optional<double> budget_of(const std::string& backend) const {
    const auto it = o_.max_case_seconds.find(backend);
    return it == o_.max_case_seconds.end() ? std::nullopt : std::optional<double>(it->second);
  }

  // Wall seconds per MAC of one run, from the largest case of this backend and format run so far.
  void note_pace(const std::string& backend, ref::FormatId format, const kernels::GemmShape& shape, double run_s) {
    Pace& p = pace_[{backend, format}];
    if (macs_of(shape) >= p.macs) p = Pace{macs_of(shape), run_s / macs_of(shape)};
  }

  // The whole case (warm-up and samples) at that pace; nullopt before any run of the pair. Only a
  // case larger than the pace's own is estimated: fixed costs make small cases slower per MAC.
  std::optional<double> estimated_seconds(const std::string& backend, ref::FormatId format,
                                          const kernels::GemmShape& shape) const {
    const auto it = pace_.find({backend, format});
    if (it == pace_.end() || macs_of(shape) < it->second.macs) return std::nullopt;
    return it->second.seconds_per_mac * macs_of(shape) * (o_.warmup + o_.samples);
  }

  static void skip_over_budget(BenchRow& row, double estimate, double budget) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "over the tier's budget (estimate %.1f s > %.0f s)", estimate, budget);
    row.status = "skipped";
    row.reason = buf;
  }

  void say(const std::string& s, bool starts_row = true) const {
    if (progress_) progress_(BenchStep{s, starts_row});
  }

  BenchRow base_row(const kernels::GemmShape& shape, ref::FormatId format, const std::string& backend,
                    bool native) const {
    BenchRow row;
    row.shape = shape;
    row.format = format;
    row.backend = backend;
    row.native = native;
    return row;
  }

  // One native row; returns its median TMAC/s when measured.
  std::optional<double> run_native(const kernels::GemmShape& shape, ref::FormatId format, bool fast,
                                   const std::string& label) {
    BenchRow row = base_row(shape, format, fast ? kNativeFastName : kNativeName, true);
    say(label + ": " + row.backend);
    row.timed_via = kTimedViaNative;
    try {
      NativeTiming t = time_cublaslt(NativeSetup{format, fast, o_.workspace_bytes}, shape, operands_, o_.seed, o_.warmup,
                                     o_.samples, flusher_);
      row.instruction = std::string(ref::format_name(t.a_format)) + " x " + std::string(ref::format_name(t.b_format)) +
                        " -> fp32, compute " + t.compute_type;
      row.algorithm = t.algorithm;
      if (t.unsupported) {
        row.status = "declined";
        row.reason = *t.unsupported;
      } else {
        fill_measurement(row, std::move(t.samples_ms));
        row.floor = floor_note(shape, t.a_format, t.b_format, ref::FormatId::fp32, Engine::tensor_cores,
                               row.ms->median, r_.ceilings);
        if (t.b_format != format) row.reason = "cuBLASLt has no " + std::string(ref::format_name(format)) + " x " +
                                               std::string(ref::format_name(format)) + " matmul: B runs as " +
                                               std::string(ref::format_name(t.b_format));
      }
    } catch (const std::exception& e) {
      row.status = "error";
      row.reason = e.what();
    }
    std::optional<double> median;
    if (row.tmacs) median = row.tmacs->median;
    r_.rows.push_back(std::move(row));
    return median;
  }

  const GemmBenchOptions& o_;
  const BenchStepFn& progress_;
  GemmBenchResult& r_;
  L2Flusher flusher_;
  OperandCache operands_;
  struct Pace {
    double macs = 0, seconds_per_mac = 0;
  };
  std::map<std::pair<std::string, ref::FormatId>, Pace> pace_;
};

}  // namespace

bool GemmBenchResult::any_error() const {
  for (const auto& r : rows)
    if (r.status == "error") return true;
  return false;
}

// MMAEMU_SOURCE_COMMIT (the commit a copied binary was built from, as the tier reports read it) wins
// over the commit CMake was configured at, which a later build of the same directory does not refresh.
std::string configured_commit() {
  const char* source = std::getenv("MMAEMU_SOURCE_COMMIT");
  return source && *source ? source : MMAEMU_BENCH_GIT_COMMIT;
}

GemmBenchResult run_gemm_bench(const GemmBenchOptions& o, const BenchStepFn& progress) {
  validate(o);
  const int devices = cuda_device_count();
  if (const Declined none = kernels::cuda_device_declines()) throw GpuError(none->detail);
  if (o.device < 0 || o.device >= devices)
    throw InputError("--device", std::to_string(o.device) + " is not one of the " + std::to_string(devices) +
                                     " CUDA devices");
  cuda_check(cudaSetDevice(o.device), "cudaSetDevice");

  GemmBenchResult r;
  r.device = device_facts(o.device);
  r.ceilings = ceilings_of(r.device, o.bandwidth_tbs);
  r.provenance = record::collect_provenance(o.device, o.command, o.commit.empty() ? configured_commit() : o.commit)
                     .fields;
  Bench bench(o, progress, r);
  for (const auto& shape : o.shapes)
    for (auto format : o.formats) {
      if (interrupt_flag().load()) {  // between cases: every row written so far is a whole case
        r.interrupted = true;
        return r;
      }
      bench.run_case(shape, format);
    }
  return r;
}

}  // namespace mmaemu::bench
