#include "harness/cublaslt/lt_record.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/sha256.hpp"
#include "harness/record/provenance.hpp"
#include "harness/cublaslt/lt_live.hpp"
#include "harness/cublaslt/lt_plan.hpp"
#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu::lt {
namespace {

// done / total, rate and time left, on a terminal only (quiet in CI logs).
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), on_(isatty(STDERR_FILENO)), start_(clock::now()) {}
  void step(size_t done) {
    if (!on_) return;
    const double s = std::chrono::duration<double>(clock::now() - start_).count();
    const double rate = s > 0 ? done / s : 0;
    std::fprintf(stderr, "\r  %zu / %zu calls  %.1f/s  %.0f s left   ", done, total_, rate,
                 rate > 0 ? (total_ - done) / rate : 0.0);
    if (done == total_) std::fprintf(stderr, "\n");
  }

 private:
  using clock = std::chrono::steady_clock;
  size_t total_;
  bool on_;
  clock::time_point start_;
};

std::string d_sha256(const std::filesystem::path& f) { return sha256_file(f); }

// The heuristic's first answer per call of the table_only groups, one CSV line each (a dense sweep is
// hundreds of thousands of calls: recording.json would be hundreds of megabytes). Lines are flushed as
// they come, so an interrupted run keeps every line it wrote.
class HeuristicTable {
 public:
  explicit HeuristicTable(const std::filesystem::path& file) : out_(file) {
    if (!out_) throw std::runtime_error("cannot write " + file.string());
    out_ << "group,a,b,d,compute,layout,max_workspace,m,n,k,fast_accum,alpha,beta,algo,tile,stages,split_k,reduction,swizzle,"
            "custom,inner_shape,cluster,workspace,tile_name,stages_name,refused,batch,epilogue\n";
  }
  void add(const PlannedCall& p, const std::vector<LtChoice>& offered, const std::string& why) {
    const LtCall& c = p.call;
    out_ << p.group << ',' << ref::format_name(c.a) << ',' << ref::format_name(c.b) << ',' << ref::format_name(c.d) << ','
         << compute_name(c.compute) << ',' << layout_name(c.layout) << ',' << c.max_workspace << ',' << c.M << ','
         << c.N << ',' << c.K << ',' << (c.fast_accum ? 1 : 0) << ',' << c.alpha << ',' << c.beta << ',';
    const std::string kind = "," + std::to_string(c.batch) + "," + (c.bias ? "bias" : "none") + "\n";
    if (offered.empty()) {
      out_ << ",,,,,,,,,,,," << why << kind;
    } else {
      const LtAlgoConfig& a = offered.front().config;
      out_ << a.algo_id << ',' << a.tile << ',' << a.stages << ',' << a.split_k << ',' << a.reduction << ','
           << a.swizzle << ',' << a.custom << ',' << a.inner_shape << ',' << a.cluster << ',' << a.workspace << ','
           << a.tile_name << ',' << a.stages_name << "," << kind;
    }
    if (++lines_ % 4096 == 0) out_.flush();
  }
  size_t lines() const { return lines_; }

 private:
  std::ofstream out_;
  size_t lines_ = 0;
};

}  // namespace

namespace {

// The runs of a group with forced configurations: the heuristic's first offer of the algorithm,
// re-configured with each split-K count x custom option (none when the heuristic does not offer it).
std::vector<LtChoice> forced_choices(const LtSession& session, const std::vector<LtChoice>& offered,
                                     const ForcedConfigs& f) {
  std::vector<LtChoice> out;
  for (const auto& ch : offered) {
    if (ch.config.algo_id != f.algo) continue;
    for (const int s : f.split_k)
      for (const int c : f.custom) out.push_back(session.with_split(ch, s, c));
    break;
  }
  return out;
}

}  // namespace

int record_cublaslt(const LtRecordOptions& o) {
  const LtPlan plan = load_plan(o.plan);
  // The recorder uploads operands in TN only; calls of other layouts are run by a client of the library
  // (--inputs-only writes their operands) and asked of the heuristic in run: false groups.
  for (const PlannedCall& p : plan.calls)
    if (p.run && p.call.layout != Layout::tn)
      throw InputError(o.plan.string(), "group '" + p.group + "' runs " + std::string(layout_name(p.call.layout)) +
                                            " calls: the recorder runs TN calls only (NN and NT: run: false, or "
                                            "--inputs-only for a client to run them)");
  LtSession session(o.device, o.workspace_bytes);
  Recording rec;
  rec.dir = o.out_dir;
  rec.plan = plan.name;
  rec.workspace_bytes = session.workspace_bytes();
  const auto prov = record::collect_provenance(o.device, o.command_line,
                                               o.commit.empty() ? record::build_commit() : o.commit);
  rec.provenance = prov.fields;
  std::filesystem::create_directories(o.out_dir / "d");
  std::filesystem::create_directories(o.out_dir / "ops");

  size_t runs = 0, rejected = 0, heuristic_rejected = 0;
  std::unique_ptr<HeuristicTable> table;
  for (const PlannedCall& p : plan.calls)
    if (p.table_only && !table) table = std::make_unique<HeuristicTable>(o.out_dir / "heuristic.csv");
  Progress progress(plan.calls.size());
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    // Between calls (one call's launches are short): what was recorded is written whole, and the
    // recording says how far it got by the calls it lists.
    if (interrupt_flag().load()) {
      write_recording(rec);
      std::cerr << "mmaemu: interrupted by " << interrupt_signal_name() << ": " << i << " of " << plan.calls.size()
                << " calls recorded, kept in " << (o.out_dir / "recording.json").string()
                << " (a partial recording: record again for the whole plan)\n";
      return interrupted_exit_status();
    }
    const PlannedCall& p = plan.calls[i];
    if (p.table_only) {
      std::string why;
      const auto offered = session.heuristic(p.call, 1, &why);
      if (offered.empty()) ++heuristic_rejected;
      table->add(p, offered, why);
      progress.step(i + 1);
      continue;
    }
    RecordedCall rc;
    rc.id = i;
    rc.group = p.group;
    rc.call = p.call;
    rc.family = p.family;
    rc.seed = p.seed;
    std::string why;
    const auto offered = session.heuristic(p.call, p.run ? plan.heuristic_results : 1, &why);
    for (const auto& ch : offered) rc.heuristic.push_back(ch.config);
    if (offered.empty()) {
      rc.heuristic_rejected = why;
      ++heuristic_rejected;
    }
    const std::vector<LtChoice> choices = p.forced ? forced_choices(session, offered, *p.forced) : offered;
    if (p.forced && choices.empty() && !offered.empty())
      std::cerr << "warning: call " << i << " (" << p.call.name() << "): the heuristic's first " << offered.size()
                << " offers hold no algorithm " << p.forced->algo << "; nothing forced\n";
    if (p.run) {
      const LtOperands ops = generate_operands(p.call, p.family, p.seed);
      rc.operands_sha256 = operands_sha256(p.call, ops);
      const size_t elements = ops.a.size() + ops.b.size() + ops.c.size();
      if (elements <= o.store_operands_up_to) {
        write_operands(o.out_dir / "ops", i, p.call, ops);
        rc.operands_stored = true;
      }
      for (size_t r = 0; r < choices.size(); ++r) {
        RecordedRun run;
        run.rank = static_cast<int>(r);
        run.config = choices[r].config;
        LtOutcome out = session.run(p.call, choices[r], ops);
        ++runs;
        if (out.rejected) {
          run.rejected = out.rejected;
          ++rejected;
        } else {
          run.d_file = "d/" + std::to_string(i) + "-" + std::to_string(r) + ".npy";
          write_d(o.out_dir / run.d_file, p.call, out.d);
          run.d_sha256 = d_sha256(o.out_dir / run.d_file);
        }
        rc.runs.push_back(std::move(run));
      }
    } else {
      rc.operands_sha256 = "";
    }
    rec.calls.push_back(std::move(rc));
    if (i % 64 == 63) write_recording(rec);  // an interrupted run keeps what it recorded
    progress.step(i + 1);
  }
  write_recording(rec);
  std::cout << "cuBLASLt " << session.library_version() << ": " << plan.calls.size() << " calls, " << runs
            << " runs (" << rejected << " refused at execution), " << heuristic_rejected
            << " calls without an algorithm -> " << (o.out_dir / "recording.json").string()
            << (table ? " and " + std::to_string(table->lines()) + " heuristic answers -> " +
                            (o.out_dir / "heuristic.csv").string()
                      : std::string())
            << "\n";
  return 0;
}

}  // namespace mmaemu::lt
