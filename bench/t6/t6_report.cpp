#include "bench/t6/t6_report.hpp"

#include <cstdio>
#include <map>
#include <sstream>

#include "kernels/backend_names.hpp"

namespace mmaemu::t6 {
namespace {

using nlohmann::json;

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// 12.3 M, 456 k: rates of the CPU sections.
std::string si(double v) {
  if (v >= 1e9) return num("%.2f G", v / 1e9);
  if (v >= 1e6) return num("%.2f M", v / 1e6);
  if (v >= 1e3) return num("%.1f k", v / 1e3);
  return num("%.1f", v);
}

std::string cell(std::string s) {
  for (auto& ch : s)
    if (ch == '|' || ch == '\n') ch = ' ';
  return s;
}

template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json reference_json(const bench::DotBenchResult& r) {
  json rows = json::array();
  for (const bench::DotRow& d : r.rows)
    rows.push_back({{"key", d.key()},
                    {"arch", d.arch},
                    {"format", d.format},
                    {"instruction", d.instruction},
                    {"L", d.L},
                    {"implementation", d.implementation},
                    {"threads", d.threads},
                    {"all_threads", d.all_threads},
                    {"status", d.status},
                    {"reason", d.reason},
                    {"samples_per_second", d.samples},
                    {"rate", d.rate ? stats_json(*d.rate) : json(nullptr)},
                    {"float_rate", opt(d.float_rate)},
                    {"share_of_float", opt(d.float_ratio)}});
  return {{"what", "dot-product-adds per second: one T-FDPA block d = c + sum of L products; reference = the oracle "
                   "(ref::dot_k), host = the kernels' arithmetic on the CPU (arith::block_chain), cpu = the cpu backend "
                   "(vector lanes, its own threads) on a GEMM of the same values whose outputs are k / L blocks each, "
                   "float = c + sum a*b in float over the same values; Google Benchmark, real time, all threads' "
                   "blocks together"},
          {"hardware_threads", r.hardware_threads},
          {"rows", rows}};
}

json harness_json(const std::vector<bench::HarnessRow>& rows) {
  json out = json::array();
  for (const bench::HarnessRow& h : rows)
    out.push_back({{"key", h.key()},
                   {"tier_file", h.tier_file},
                   {"suite", h.suite},
                   {"status", h.status},
                   {"reason", h.reason},
                   {"compared_per_run", h.compared},
                   {"seconds", h.seconds},
                   {"samples_per_second", h.samples},
                   {"rate", h.rate ? stats_json(*h.rate) : json(nullptr)}});
  return {{"what", "cases (outputs and accumulators compared) per second of wall time of `mmaemu run TIER --suite S`: "
                   "loading, generating, comparing and writing reports"},
          {"rows", out}};
}

json mmasim_json(const std::vector<bench::MmasimRow>& rows) {
  json out = json::array();
  for (const bench::MmasimRow& m : rows)
    out.push_back({{"key", m.key()},
                   {"arch", m.arch},
                   {"instruction", m.instruction},
                   {"implementation", m.implementation},
                   {"threads", m.threads},
                   {"all_threads", m.all_threads},
                   {"status", m.status},
                   {"reason", m.reason},
                   {"outputs_per_pass", m.outputs},
                   {"samples_per_second", m.samples},
                   {"rate", m.rate ? stats_json(*m.rate) : json(nullptr)},
                   {"vs_mmasim", opt(m.vs_mmasim)},
                   {"mmasim_equal_to_reference", opt(m.equal_to_reference)},
                   {"versions", m.versions}});
  return {{"what", "instruction outputs per second on the same tiles of realistic operands: MMA-Sim (a model, "
                   "Python on PyTorch, one torch thread, operands converted before timing) beside mmaemu's CPU "
                   "backends through Backend::run (wall time of each pass over all tiles); every backend's D equal "
                   "to the reference's, MMA-Sim's agreement counted"},
          {"rows", out}};
}

json process_json(const std::vector<bench::ProcessRow>& rows) {
  json out = json::array();
  for (const bench::ProcessRow& p : rows)
    out.push_back({{"key", p.key()},
                   {"what", p.what},
                   {"arch", p.arch},
                   {"instruction", p.instruction},
                   {"implementation", p.implementation},
                   {"command", p.command},
                   {"status", p.status},
                   {"reason", p.reason},
                   {"outputs", p.outputs},
                   {"seconds", p.seconds},
                   {"wall", p.wall ? stats_json(*p.wall) : json(nullptr)},
                   {"peak_rss_mb", opt(p.peak_rss_mb)},
                   {"unit", p.unit()},
                   {"rate", p.rate ? stats_json(*p.rate) : json(nullptr)},
                   {"vs_mmasim", opt(p.vs_mmasim)},
                   {"mmasim_equal_to_reference", opt(p.equal_to_reference)}});
  return {{"what", "whole processes, timed from fork to reaping after one untimed run: `mmaemu --version` (start-up "
                   "time and peak resident memory), `mmaemu mma --backend cpu` on one thread over instruction tiles in "
                   ".npy files beside MMA-Sim's script run whole on the same files (interpreter, imports, reading, "
                   "computing, writing); mmaemu's D equal to the reference's, MMA-Sim's agreement counted"},
          {"rows", out}};
}

json model_json(const std::vector<bench::ModelRow>& rows) {
  json out = json::array();
  for (const bench::ModelRow& m : rows)
    out.push_back({{"key", m.key()},
                   {"model", m.model},
                   {"device", m.device},
                   {"mode", m.mode},
                   {"status", m.status},
                   {"reason", m.reason},
                   {"tokens_per_forward", m.tokens},
                   {"seconds", m.seconds},
                   {"tokens_per_second", m.rate ? stats_json(*m.rate) : json(nullptr)},
                   {"calls_per_forward", m.calls},
                   {"native_calls_per_forward", m.native_calls},
                   {"matmul_seconds_per_forward", m.matmul_seconds},
                   {"equal_to_native", m.equal_to_native ? json(*m.equal_to_native) : json(nullptr)},
                   {"slowdown", opt(m.slowdown)},
                   {"versions", m.versions}});
  return {{"what", "tokens per second of a model's forward pass natively and under mmaemu.torch.emulate (the cpu "
                   "engine on the CPU, cuda on the GPU), wall time of each forward after one untimed; on a GPU the "
                   "emulated logits compared with the native ones bit for bit"},
          {"rows", out}};
}

json baseline_json(const BaselineResult& b) {
  json compared = json::array();
  for (const Comparison& c : b.compared)
    compared.push_back({{"key", c.key},
                        {"before", stats_json(c.before)},
                        {"now", stats_json(c.now)},
                        {"ratio", c.ratio},
                        {"regression", c.regression}});
  return {{"file", b.file},
          {"rule", "a regression: the p10-p90 bands of both runs do not overlap (new below) and the medians differ "
                   "by more than min_drop_percent"},
          {"min_drop_percent", b.min_drop_percent},
          {"regressions", b.regressions()},
          {"compared", compared},
          {"not_measured_now", b.not_measured_now}};
}

const RateRow* find_row(const T6Result& r, const std::string& key) {
  for (const RateRow& row : r.rows)
    if (row.key == key) return &row;
  return nullptr;
}

// The target, with what was measured beside it; empty when the row was not part of the run.
std::string reference_headline(const T6Result& r) {
  if (!r.targets.reference) return "";
  const RowTarget& target = *r.targets.reference;
  const RateRow* ref = find_row(r, target.row);
  if (!ref || !ref->rate) return "";
  std::string s = "reference, Hopper fp16 (L=16), one thread: " + si(ref->rate->median) + " dot-product-adds/s (target " +
                  si(target.at_least) + ": " + (ref->rate->median >= target.at_least ? "reached" : "not reached") +
                  "; measured, not asserted)";
  if (const RateRow* host = find_row(r, "dot/sm90/fp16/host/t1"); host && host->rate)
    s += "; host " + si(host->rate->median);
  if (const RateRow* f = find_row(r, "dot/float/L16/t1"); f && f->rate) s += "; float loop " + si(f->rate->median);
  return s;
}

// The fast CPU backend's targets beside what was measured; empty when neither row was part of the run.
std::string cpu_headline(const T6Result& r) {
  std::string s;
  if (const std::optional<RowTarget>& t = r.targets.cpu; t)
    if (const RateRow* cpu = find_row(r, t->row); cpu && cpu->rate)
      s = "cpu, Hopper fp16 (L=16), one thread: " + si(cpu->rate->median) + " dot-product-adds/s (target " +
          si(t->at_least) + ": " + (cpu->rate->median >= t->at_least ? "reached" : "not reached") + ")";
  if (const std::optional<RowTarget>& t = r.targets.cpu_vs_mmasim; t && r.mmasim)
    for (const bench::MmasimRow& m : *r.mmasim)
      if (m.key() == t->row && m.vs_mmasim)
        s += std::string(s.empty() ? "" : "; ") + "beside MMA-Sim on " + m.instruction + " tiles, one thread each: " +
             num("%.1fx", *m.vs_mmasim) + " (target " + num("%.0fx", t->at_least) + ": " +
             (*m.vs_mmasim >= t->at_least ? "reached" : "not reached") + ")";
  return s.empty() ? s : s + "; measured, not asserted";
}

// The whole-process targets (start-up, `mmaemu mma` beside MMA-Sim) beside what was measured.
std::string process_headline(const T6Result& r) {
  if (!r.process) return "";
  std::string s;
  if (const std::optional<StartupTarget>& t = r.targets.startup; t)
    for (const bench::ProcessRow& p : *r.process)
      if (p.key() == t->row && p.wall && p.peak_rss_mb) {
        const bool reached = p.wall->median <= t->seconds_at_most && *p.peak_rss_mb <= t->rss_mb_at_most;
        s = "mmaemu --version, whole process: " + num("%.1f", 1e3 * p.wall->median) + " ms, " +
            num("%.1f", *p.peak_rss_mb) + " MB peak resident (target " + num("%.0f", 1e3 * t->seconds_at_most) +
            " ms and " + num("%.0f", t->rss_mb_at_most) + " MB: " + (reached ? "reached" : "not reached") + ")";
      }
  if (const std::optional<RowTarget>& t = r.targets.process_vs_mmasim; t)
    for (const bench::ProcessRow& p : *r.process)
      if (p.key() == t->row && p.vs_mmasim)
        s += std::string(s.empty() ? "" : "; ") + "mmaemu mma beside MMA-Sim's script on " + p.instruction +
             " tiles, whole processes, one thread each: " + num("%.1fx", *p.vs_mmasim) + " (target " +
             num("%.0fx", t->at_least) + ": " + (*p.vs_mmasim >= t->at_least ? "reached" : "not reached") + ")";
  return s.empty() ? s : s + "; measured, not asserted";
}

// The cpu engine's library GEMM against the CPU's own sgemm, one thread each, and how it scales.
std::string cpu_library_headline(const T6Result& r) {
  if (!r.library || !r.targets.cpu_library_vs_sgemm) return "";
  const CpuLibraryTarget& t = *r.targets.cpu_library_vs_sgemm;
  std::string s;
  for (const std::string& shape : t.shapes) {
    const bench::LibraryRow *one = nullptr, *all = nullptr;
    for (const bench::LibraryRow& l : *r.library)
      if (l.engine == "cpu" && l.format == t.format && l.shape == shape && l.split_k == 1 && l.vs_cpu_blas)
        (l.all_threads ? all : one) = &l;
    if (!one) continue;
    s += std::string(s.empty() ? "" : "; ") + shape + " " + num("%.1f%%", 100 * *one->vs_cpu_blas) + " (" +
         (*one->vs_cpu_blas >= t.at_least ? "reached" : "not reached") + ")";
    if (all && one->gmacs && all->gmacs && all->threads > 1)
      s += ", " + std::to_string(all->threads) + " threads " +
           num("%.2fx", all->gmacs->median / one->gmacs->median) + " of one";
  }
  return s.empty() ? s
                   : "cpu engine's library GEMM (" + t.format + ") beside the CPU's sgemm, one thread each (target " +
                         num("%.0f%%", 100 * t.at_least) + "): " + s + "; measured, not asserted";
}

// The forward passes' slowdown under emulation against the target, and the CPU's tokens per second.
std::string model_headline(const T6Result& r) {
  if (!r.model) return "";
  std::string s;
  for (const bench::ModelRow& m : *r.model) {
    if (!m.slowdown || !m.rate) continue;
    s += std::string(s.empty() ? "" : "; ") + m.model + " on " + m.device + " " + num("%.1fx", *m.slowdown) + " (" +
         si(m.rate->median) + " tokens/s)";
    if (r.targets.model_slowdown && r.targets.model_slowdown->device == m.device)
      s += *m.slowdown <= r.targets.model_slowdown->at_most ? " reached" : " not reached";
  }
  if (s.empty()) return s;
  const std::string target = r.targets.model_slowdown ? " (target on " + r.targets.model_slowdown->device +
                                                            ": at most " + num("%.0fx", r.targets.model_slowdown->at_most) + ")"
                                                      : "";
  return "forward pass under emulation, slowdown over native" + target + ": " + s + "; measured, not asserted";
}

struct SectionCounts {
  size_t measured = 0, skipped = 0, errors = 0, regressions = 0;
};

std::map<std::string, SectionCounts> counts(const T6Result& r) {
  std::map<std::string, SectionCounts> c;
  for (const RateRow& row : r.rows) {
    SectionCounts& s = c[row.section];
    if (row.rate) ++s.measured;
    else if (row.status == "error") ++s.errors;
    else ++s.skipped;
  }
  if (r.baseline) {
    std::map<std::string, std::string> section_of;
    for (const RateRow& row : r.rows) section_of[row.key] = row.section;
    for (const Comparison& cmp : r.baseline->compared)
      if (cmp.regression) ++c[section_of[cmp.key]].regressions;
  }
  return c;
}

std::string reference_markdown(const bench::DotBenchResult& r) {
  std::ostringstream md;
  md << "## Reference (CPU): dot-product-adds per second\n\n"
     << "One dot-product-add is one T-FDPA block, d = c + sum of L products. `reference` is the oracle "
        "(`ref::dot_k`), `host` the kernels' arithmetic on the CPU (`arith::block_chain`), both checked to give the "
        "same bits on the batch first; `cpu` the cpu backend (the same arithmetic on vector lanes, "
        "its own threads) on a GEMM of the same values whose outputs are k / L blocks each, checked against the "
        "reference backend on it first; `float` is c + sum a*b in float over the same values. Median of the "
        "repetitions, spread p10-p90; "
     << r.hardware_threads << " hardware threads.\n\n"
     << "| profile | format | L | implementation | threads | dot-product-adds/s | spread | float loop | share of float |\n"
     << "|---|---|---:|---|---:|---:|---:|---:|---:|\n";
  for (const bench::DotRow& d : r.rows) {
    md << "| " << (d.arch.empty() ? "-" : d.arch) << " | " << (d.format.empty() ? "-" : d.format) << " | " << d.L
       << " | " << d.implementation << " | " << d.threads << (d.all_threads ? " (all)" : "") << " | ";
    if (!d.rate) {
      md << d.status << " | " << cell(d.reason) << " | | |\n";
      continue;
    }
    md << si(d.rate->median) << " | " << si(d.rate->p10) << "-" << si(d.rate->p90) << " | "
       << (d.float_rate ? si(*d.float_rate) : "") << " | " << (d.float_ratio ? num("%.3f", *d.float_ratio) : "")
       << " |\n";
  }
  return md.str();
}

std::string mmasim_markdown(const std::vector<bench::MmasimRow>& rows) {
  std::ostringstream md;
  md << "## Instructions beside MMA-Sim (CPU): outputs per second\n\n"
     << "The same tiles of realistic operands through MMA-Sim (a model: Python on PyTorch, one torch thread, "
        "operands converted to torch before the clock starts) and through mmaemu's CPU backends (`Backend::run` on "
        "all tiles as one batch, wall time of each pass). Every backend's outputs equal the reference's bit for bit "
        "(else the row is an error); MMA-Sim's agreement is in the last column. Median of the passes, spread "
        "p10-p90.\n\n"
     << "| instruction | implementation | threads | outputs/s | spread | x MMA-Sim | note |\n"
     << "|---|---|---:|---:|---:|---:|---|\n";
  for (const bench::MmasimRow& m : rows) {
    md << "| " << m.instruction << " | " << m.implementation << " | " << m.threads << (m.all_threads ? " (all)" : "")
       << " | ";
    if (!m.rate) {
      md << m.status << " | | | " << cell(m.reason) << " |\n";
      continue;
    }
    std::string note = m.reason;
    if (m.equal_to_reference)
      note = std::to_string(*m.equal_to_reference) + " / " + std::to_string(m.outputs) + " outputs equal to mmaemu's; " +
             m.versions + (note.empty() ? "" : "; " + note);
    md << si(m.rate->median) << " | " << si(m.rate->p10) << "-" << si(m.rate->p90) << " | "
       << (m.vs_mmasim ? num("%.1f", *m.vs_mmasim) : "") << " | " << cell(note) << " |\n";
  }
  return md.str();
}

std::string process_markdown(const std::vector<bench::ProcessRow>& rows) {
  std::ostringstream md;
  md << "## Whole processes (CPU): start-up, and `mmaemu mma` beside MMA-Sim\n\n"
     << "Each program started as a user starts it, timed from fork to reaping after one untimed run (files in the "
        "page cache): `mmaemu --version`, and `mmaemu mma --backend cpu` on one thread (MMAEMU_THREADS=1) over "
        "instruction tiles in .npy files beside MMA-Sim's script (bench/cpu/mmasim_rate.py, one pass, one torch "
        "thread) on the same files, its interpreter and imports included. mmaemu's D equals the reference's bit "
        "for bit (else the row is an error); MMA-Sim's agreement is in the last column. Median, spread p10-p90.\n\n"
     << "| command | runs | wall (median) | spread | peak resident | rate | x MMA-Sim | note |\n"
     << "|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const bench::ProcessRow& p : rows) {
    const std::string what = p.what == "start" ? "mmaemu --version"
                                               : (p.implementation == "mmaemu" ? "mmaemu mma " : "MMA-Sim ") + p.instruction;
    md << "| " << cell(what) << " | ";
    if (!p.wall || !p.rate) {
      md << p.status << " | | | | | | " << cell(p.reason) << " |\n";
      continue;
    }
    std::string note = p.reason;
    if (p.equal_to_reference)
      note = std::to_string(*p.equal_to_reference) + " / " + std::to_string(p.outputs) + " outputs equal to mmaemu's" +
             (note.empty() ? "" : "; " + note);
    md << p.seconds.size() << " | " << num("%.4g", p.wall->median) << " s | " << num("%.4g", p.wall->p10) << "-"
       << num("%.4g", p.wall->p90) << " | " << (p.peak_rss_mb ? num("%.1f MB", *p.peak_rss_mb) : "") << " | "
       << si(p.rate->median) << " " << p.unit() << " | " << (p.vs_mmasim ? num("%.1f", *p.vs_mmasim) : "") << " | "
       << cell(note) << " |\n";
  }
  return md.str();
}

std::string model_markdown(const std::vector<bench::ModelRow>& rows) {
  std::ostringstream md;
  md << "## Models (CPU and GPU): a forward pass natively and under emulation\n\n"
     << "Each model's forward over seeded token ids (bench/cpu/model_rate.py in a child Python): natively, then under "
        "`mmaemu.torch.emulate(\"cublaslt-h200\", strict=False)` with the cpu engine on the CPU and cuda on the GPU; "
        "wall time per forward after one untimed, median and spread p10-p90. On a GPU the emulated logits are "
        "compared with the native ones bit for bit.\n\n"
     << "| model | device | mode | tokens/s | spread | slowdown | calls | matmuls' share | logits | note |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---|---|\n";
  for (const bench::ModelRow& m : rows) {
    md << "| " << m.model << " | " << m.device << " | " << m.mode << " | ";
    if (!m.rate) {
      md << m.status << " | | | | | | " << cell(m.reason) << " |\n";
      continue;
    }
    const double median_s = bench::summarize(m.seconds).median;
    md << si(m.rate->median) << " | " << si(m.rate->p10) << "-" << si(m.rate->p90) << " | "
       << (m.slowdown ? num("%.2fx", *m.slowdown) : "") << " | " << (m.mode == "native" ? "" : std::to_string(m.calls))
       << " | " << (m.mode == "native" ? "" : num("%.0f%%", 100 * m.matmul_seconds / median_s)) << " | "
       << (m.equal_to_native ? (*m.equal_to_native ? "equal" : "differ") : "") << " | " << cell(m.reason) << " |\n";
  }
  return md.str();
}

std::string library_markdown(const std::vector<bench::LibraryRow>& rows) {
  std::ostringstream md;
  md << "## cuBLASLt model (library GEMM): GMAC/s per engine beside cuBLASLt\n\n"
     << "`kernels::library_gemm` on each engine (reference, host, cpu on the CPU; cuda on the GPU, operands copied "
        "in and out), wall time of the call after one untimed call; every engine's D equal to the first engine's bit "
        "for bit (else the row is an error). cuBLASLt: the library itself at the same shape and types (fp32 C and D, "
        "CUDA events, L2 flushed). Median, spread p10-p90.\n\n"
     << "`sgemm`: the CPU's own float32 GEMM (numpy's matmul on the BLAS it links) at the same shape and thread "
        "count, in a child Python; `x sgemm` is a CPU engine's rate over it.\n\n"
     << "| format | shape | algorithm | split-K | engine | threads | GMAC/s | spread | x cuBLASLt | x sgemm | note |\n"
     << "|---|---|---|---:|---|---:|---:|---:|---:|---:|---|\n";
  for (const bench::LibraryRow& l : rows) {
    md << "| " << l.format << " | " << l.shape << " | "
       << (l.engine == bench::kLibraryCpuBlas ? "-" : l.algorithm < 0 ? "default" : std::to_string(l.algorithm)) << " | "
       << (l.engine == bench::kLibraryCpuBlas ? "-" : std::to_string(l.split_k)) << " | " << l.engine << " | "
       << (l.threads ? std::to_string(l.threads) + (l.all_threads ? " (all)" : "") : "GPU") << " | ";
    if (!l.gmacs) {
      md << l.status << " | | | | " << cell(l.reason) << " |\n";
      continue;
    }
    md << num("%.4g", l.gmacs->median) << " | " << num("%.4g", l.gmacs->p10) << "-" << num("%.4g", l.gmacs->p90)
       << " | " << (l.vs_native ? num("%.4f", *l.vs_native) : "") << " | "
       << (l.vs_cpu_blas ? num("%.3f", *l.vs_cpu_blas) : "") << " | " << cell(l.algorithm_ran) << " |\n";
  }
  return md.str();
}

json library_json(const std::vector<bench::LibraryRow>& rows) {
  json out = json::array();
  for (const bench::LibraryRow& l : rows)
    out.push_back({{"key", l.key()},
                   {"format", l.format},
                   {"shape", l.shape},
                   {"algorithm", l.algorithm},
                   {"split_k", l.split_k},
                   {"engine", l.engine},
                   {"threads", l.threads},
                   {"all_threads", l.all_threads},
                   {"status", l.status},
                   {"reason", l.reason},
                   {"gmacs", l.gmacs ? stats_json(*l.gmacs) : json(nullptr)},
                   {"vs_native", opt(l.vs_native)},
                   {"vs_cpu_blas", opt(l.vs_cpu_blas)},
                   {"native_algorithm", l.algorithm_ran}});
  return {{"what", "multiply-adds per second of kernels::library_gemm (the cuBLASLt model) per engine, wall time of "
                   "the call; cuBLASLt itself beside (CUDA events); the CPU's own sgemm (numpy) beside the CPU "
                   "engines at the same shape and thread count"},
          {"rows", out}};
}

std::string harness_markdown(const std::vector<bench::HarnessRow>& rows) {
  std::ostringstream md;
  md << "## Harness (CPU): cases per second of `mmaemu run`\n\n"
     << "Outputs and accumulators compared per second of wall time, the whole run counted (loading, generating, "
        "comparing, writing reports).\n\n"
     << "| suite | compared per run | runs | cases/s | spread | seconds (median run) |\n"
     << "|---|---:|---:|---:|---:|---:|\n";
  for (const bench::HarnessRow& h : rows) {
    md << "| " << h.name << " | ";
    if (!h.rate) {
      md << h.status << " | | " << cell(h.reason) << " | | |\n";
      continue;
    }
    md << h.compared << " | " << h.samples.size() << " | " << si(h.rate->median) << " | " << si(h.rate->p10) << "-"
       << si(h.rate->p90) << " | " << num("%.2f", bench::summarize(h.seconds).median) << " |\n";
  }
  return md.str();
}

std::string baseline_markdown(const BaselineResult& b) {
  std::ostringstream md;
  md << "## Against the baseline\n\n`" << b.file << "`: " << b.compared.size() << " rates compared, "
     << b.regressions() << " regression(s). A regression: the p10-p90 bands of both runs do not overlap (new below) "
     << "and the medians differ by more than " << num("%.0f", b.min_drop_percent) << "%.\n\n";
  if (b.regressions() > 0) {
    md << "| rate | unit | before (median, p10-p90) | now | ratio |\n|---|---|---:|---:|---:|\n";
    for (const Comparison& c : b.compared)
      if (c.regression)
        md << "| " << cell(c.label) << " | " << c.unit << " | " << num("%.4g", c.before.median) << " ("
           << num("%.4g", c.before.p10) << "-" << num("%.4g", c.before.p90) << ") | " << num("%.4g", c.now.median)
           << " (" << num("%.4g", c.now.p10) << "-" << num("%.4g", c.now.p90) << ") | " << num("%.3f", c.ratio)
           << " |\n";
  }
  if (!b.not_measured_now.empty()) md << "\nMeasured in the baseline, not now: " << b.not_measured_now.size() << ".\n";
  return md.str();
}

}  // namespace

json t6_report_json(const T6Result& r) {
  json prov = {{"tool_version", r.provenance.tool_version},
               {"commit", r.provenance.commit},
               {"started_utc", r.provenance.started_utc},
               {"host", r.provenance.host},
               {"hardware_threads", r.hardware_threads}};
  for (const auto& [k, v] : r.provenance.environment) prov[k] = v;
  json sections = json::object();
  if (r.reference) sections["reference"] = reference_json(*r.reference);
  if (r.harness) sections["harness"] = harness_json(*r.harness);
  if (r.mmasim) sections["mmasim"] = mmasim_json(*r.mmasim);
  if (r.process) sections["process"] = process_json(*r.process);
  if (r.model) sections["model"] = model_json(*r.model);
  if (r.library) sections["library"] = library_json(*r.library);
  if (r.gemm)
    sections["gemm"] = {{"skipped", r.gemm->skipped}, {"report", r.gemm->skipped.empty() ? r.gemm->report : json(nullptr)}};
  return {{"schema", kT6Schema},
          {"tier", r.tier},
          {"tier_file", r.tier_file},
          {"command", r.command},
          // "running" while sections remain, "interrupted" when a signal stopped the run.
          {"state", run_state_name(r.provenance.state)},
          {"planned_sections", r.provenance.planned},
          {"provenance", prov},
          {"sections", sections},
          {"rows", rows_json(r.rows)},
          {"baseline", r.baseline ? baseline_json(*r.baseline) : json(nullptr)}};
}

std::string t6_verdict_table(const T6Result& r) {
  std::ostringstream s;
  s << "| T6 section | unit | measured | skipped | errors | regressions |\n|---|---|---:|---:|---:|---:|\n";
  const auto c = counts(r);
  auto line = [&](const std::string& section, const char* unit, const std::string& note) {
    const auto it = c.find(section);
    const SectionCounts n = it == c.end() ? SectionCounts{} : it->second;
    s << "| " << section << " | " << unit << " | " << n.measured << " | " << n.skipped << " | " << n.errors << " | "
      << (r.baseline ? std::to_string(n.regressions) : "-") << " |";
    if (!note.empty()) s << " " << note;
    s << "\n";
  };
  if (r.reference) line("reference", "dot-product-adds/s", "");
  if (r.mmasim) line("mmasim", "outputs/s", "");
  if (r.process) line("process", "starts/s, outputs/s", "");
  if (r.model) line("model", "tokens/s", "");
  if (r.library) line("library", "GMAC/s", "");
  if (r.harness) line("harness", "cases/s", "");
  if (r.gemm) line("gemm", "TMAC/s", r.gemm->skipped.empty() ? "" : "skipped: " + r.gemm->skipped);
  if (const std::string h = reference_headline(r); !h.empty()) s << "\n" << h << "\n";
  if (const std::string h = cpu_headline(r); !h.empty()) s << "\n" << h << "\n";
  if (const std::string h = process_headline(r); !h.empty()) s << "\n" << h << "\n";
  if (const std::string h = cpu_library_headline(r); !h.empty()) s << "\n" << h << "\n";
  if (const std::string h = model_headline(r); !h.empty()) s << "\n" << h << "\n";
  return s.str();
}

// The GPU targets beside what this run measured; empty when neither the gemm nor the library section
// measured a GPU row. A target whose rows were not run (a shape left out, a backend declined) says so.
std::string gpu_targets_markdown(const T6Result& r) {
  std::ostringstream t;
  size_t rows = 0;
  auto row = [&](const std::string& what, const std::string& measured, std::optional<bool> reached) {
    t << "| " << what << " | " << measured << " | " << (!reached ? "not measured" : *reached ? "reached" : "not reached")
      << " |\n";
    ++rows;
  };
  const bool gemm_ran = r.gemm && r.gemm->skipped.empty();
  auto point = [&](const std::string& backend, const std::string& format, const std::string& shape) -> const GemmPoint* {
    if (!gemm_ran) return nullptr;
    for (const GemmPoint& p : r.gemm->points)
      if (p.backend == backend && p.format == format && p.shape == shape) return &p;
    return nullptr;
  };
  const T6Targets& targets = r.targets;
  if (gemm_ran && targets.tc_vs_cublaslt) {
    const NativeRatioTarget& tc = *targets.tc_vs_cublaslt;
    for (const std::string& shape : tc.shapes)
      for (const std::string& format : tc.formats) {
        const GemmPoint* p = point("tc", format, shape);
        const std::string what = "tc / cuBLASLt, " + format + " " + shape + " (>= " + num("%.0f%%", 100 * tc.at_least) + ")";
        if (p && p->tmacs && p->ratio)
          row(what, num("%.1f%%", 100 * *p->ratio) + " (" + num("%.1f", p->tmacs->median) + " TMAC/s)",
              *p->ratio >= tc.at_least);
        else
          row(what, p ? p->status + (p->reason.empty() ? "" : ": " + p->reason) : "not run", std::nullopt);
      }
  }
  if (gemm_ran && targets.cuda_core_tmacs) {
    for (const CudaCoreTarget& target : targets.cuda_core_tmacs->shapes)
      for (const std::string& format : targets.cuda_core_tmacs->formats) {
        const GemmPoint* best = nullptr;
        for (const std::string& backend : kernels::cuda_core_backend_names())
          if (const GemmPoint* p = point(backend, format, target.shape); p && p->tmacs && (!best || p->tmacs->median > best->tmacs->median))
            best = p;
        const std::string what = "best CUDA-core emulator, " + format + " " + target.shape + " (>= " +
                                 num("%.1f", target.tmacs) + " TMAC/s)";
        if (best)
          row(what, best->backend + " " + num("%.3f", best->tmacs->median) + " TMAC/s", best->tmacs->median >= target.tmacs);
        else
          row(what, "no CUDA-core backend measured", std::nullopt);
      }
  }
  if (r.library && targets.library_gpu_vs_cublaslt)
    for (const bench::LibraryRow& l : *r.library)
      if (l.engine == "cuda" && l.shape == targets.library_gpu_vs_cublaslt->shape) {
        const double at_least = targets.library_gpu_vs_cublaslt->at_least;
        const std::string what = "library model on the GPU / cuBLASLt, " + l.format + " " + l.shape + " split-K " +
                                 std::to_string(l.split_k) + " (>= " + num("%.0f%%", 100 * at_least) + ")";
        if (l.vs_native && l.gmacs)
          row(what, num("%.1f%%", 100 * *l.vs_native) + " (" + num("%.1f", l.gmacs->median) + " GMAC/s)",
              *l.vs_native >= at_least);
        else
          row(what, l.status + (l.reason.empty() ? "" : ": " + l.reason), std::nullopt);
      }
  if (rows == 0) return "";
  return "## GPU targets (measured, not asserted)\n\n| target | measured | verdict |\n|---|---|---|\n" + t.str();
}

std::string t6_report_markdown(const T6Result& r) {
  std::ostringstream md;
  md << "# " << r.tier << ": throughput\n\n"
     << "commit " << r.provenance.commit << " (" << r.provenance.environment.at("worktree") << "), host "
     << r.provenance.host << ", " << r.hardware_threads << " hardware threads, " << r.provenance.environment.at("os")
     << ", " << r.provenance.environment.at("compiler") << ", " << r.provenance.started_utc << "\n\n"
     << t6_verdict_table(r) << "\n";
  if (r.provenance.state != RunState::complete)  // a reader must not take a partial run for a whole one
    md << "**" << (r.provenance.state == RunState::interrupted ? "Interrupted" : "Still running")
       << ": the sections below are those that finished, of " << r.provenance.planned << "**\n\n";
  if (const std::string targets = gpu_targets_markdown(r); !targets.empty()) md << targets << "\n";
  if (r.reference) md << reference_markdown(*r.reference) << "\n";
  if (r.mmasim) md << mmasim_markdown(*r.mmasim) << "\n";
  if (r.process) md << process_markdown(*r.process) << "\n";
  if (r.model) md << model_markdown(*r.model) << "\n";
  if (r.library) md << library_markdown(*r.library) << "\n";
  if (r.harness) md << harness_markdown(*r.harness) << "\n";
  if (r.gemm) {
    md << "## GEMM (GPU): TMAC/s beside cuBLASLt\n\n";
    if (!r.gemm->skipped.empty()) md << "Skipped: " << r.gemm->skipped << ".\n\n";
    else md << r.gemm->markdown << "\n";
  }
  if (r.baseline) md << baseline_markdown(*r.baseline);
  return md.str();
}

Plot gemm_plot(const GemmSectionResult& g) {
  Plot plot;
  plot.title = "GEMM throughput against problem size (log-log); dashed: cuBLASLt; open markers: non-square shapes";
  plot.x_label = "problem size (MACs = M*N*K)";
  plot.y_label = "TMAC/s (median)";
  std::vector<std::string> formats;
  std::map<std::string, std::map<std::string, PlotSeries>> series;  // format -> series name -> series
  for (const GemmPoint& p : g.points) {
    if (!p.tmacs) continue;
    if (!series.count(p.format)) formats.push_back(p.format);
    const std::string name = p.backend + (p.square ? "" : " (other shapes)");
    PlotSeries& s = series[p.format][name];
    s.name = name;
    s.line = p.square;
    s.dashed = p.native;
    s.points.emplace_back(p.macs, p.tmacs->median);
  }
  for (const std::string& f : formats) {
    PlotPanel panel;
    panel.title = f;
    for (auto& [name, s] : series[f]) panel.series.push_back(std::move(s));
    plot.panels.push_back(std::move(panel));
  }
  return plot;
}

}  // namespace mmaemu::t6
