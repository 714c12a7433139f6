#include "bench/t6/t6_result.hpp"

namespace mmaemu::t6 {

size_t T6Result::errors() const {
  size_t n = 0;
  for (const RateRow& r : rows) n += r.status == "error";
  return n;
}

size_t T6Result::measured() const {
  size_t n = 0;
  for (const RateRow& r : rows) n += r.rate.has_value();
  return n;
}

std::vector<RateRow> reference_rows(const bench::DotBenchResult& r) {
  std::vector<RateRow> out;
  for (const bench::DotRow& d : r.rows) {
    const std::string threads = d.all_threads ? "all threads (" + std::to_string(d.threads) + ")"
                                              : std::to_string(d.threads) + (d.threads == 1 ? " thread" : " threads");
    const std::string what = d.implementation == bench::kDotFloat
                                 ? "float loop L=" + std::to_string(d.L)
                                 : d.arch + " " + d.format + " L=" + std::to_string(d.L) + " " + d.implementation;
    out.push_back({"reference", d.key(), what + ", " + threads, "dot-product-adds/s", d.status, d.reason, d.rate});
  }
  return out;
}

std::vector<RateRow> harness_rows(const std::vector<bench::HarnessRow>& rows) {
  std::vector<RateRow> out;
  for (const bench::HarnessRow& h : rows)
    out.push_back({"harness", h.key(), h.name + " (mmaemu run)", "cases/s", h.status, h.reason, h.rate});
  return out;
}

std::vector<RateRow> mmasim_rows(const std::vector<bench::MmasimRow>& rows) {
  std::vector<RateRow> out;
  for (const bench::MmasimRow& m : rows) {
    const std::string threads = m.all_threads ? "all threads (" + std::to_string(m.threads) + ")" : "1 thread";
    out.push_back({"mmasim", m.key(), m.arch + " " + m.instruction + " " + m.implementation + ", " + threads,
                   "outputs/s", m.status, m.reason, m.rate});
  }
  return out;
}

std::vector<RateRow> process_rows(const std::vector<bench::ProcessRow>& rows) {
  std::vector<RateRow> out;
  for (const bench::ProcessRow& p : rows) {
    const std::string what = p.what == "start" ? "mmaemu --version (start-up)"
                                               : p.arch + " " + p.instruction + " " +
                                                     (p.implementation == "mmaemu" ? "mmaemu mma" : "MMA-Sim's script") +
                                                     ", whole process";
    out.push_back({"process", p.key(), what, p.unit(), p.status, p.reason, p.rate});
  }
  return out;
}

std::vector<RateRow> model_rows(const std::vector<bench::ModelRow>& rows) {
  std::vector<RateRow> out;
  for (const bench::ModelRow& m : rows)
    out.push_back({"model", m.key(), m.model + " forward on " + m.device + ", " + m.mode, "tokens/s", m.status, m.reason,
                   m.rate});
  return out;
}

std::vector<RateRow> library_rows(const std::vector<bench::LibraryRow>& rows) {
  std::vector<RateRow> out;
  for (const bench::LibraryRow& l : rows)
    out.push_back({"library", l.key(),
                   "library " + l.format + " " + l.shape + " split-K " + std::to_string(l.split_k) + " " + l.engine,
                   "GMAC/s", l.status, l.reason, l.gmacs});
  return out;
}

std::vector<RateRow> gemm_rows(const GemmSectionResult& g) {
  std::vector<RateRow> out;
  for (const GemmPoint& p : g.points)
    out.push_back({"gemm", "gemm/" + p.format + "/" + p.backend + "/" + p.shape,
                   p.format + " " + p.backend + " " + p.shape, "TMAC/s", p.status, p.reason, p.tmacs});
  return out;
}

}  // namespace mmaemu::t6
