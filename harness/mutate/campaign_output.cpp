#include "harness/mutate/campaign_output.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "harness/core/atomic_file.hpp"

namespace mmaemu::mutate {

void write_reports(const KillMatrix& m, const std::filesystem::path& dir, const std::string& stem) {
  write_file_atomic(dir / (stem + ".json"), to_json(m));
  write_file_atomic(dir / (stem + ".md"), to_markdown(m));
}

std::string verdict_table(const KillMatrix& m, double seconds, unsigned jobs) {
  std::ostringstream out;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: %zu mutants, %zu tests, %u jobs, %.1f s\n", m.tier.c_str(), m.mutants.size(),
                m.tests.size(), jobs, seconds);
  out << buf;
  out << "outcome              mutants\n";
  for (Outcome o : {Outcome::killed, Outcome::timeout, Outcome::crash, Outcome::survived, Outcome::equivalent,
                    Outcome::equivalent_killed, Outcome::identity_survived, Outcome::identity_killed, Outcome::error}) {
    const size_t n = m.count(o);
    if (n == 0 && is_problem(o) && o != Outcome::survived) continue;  // rare problems only when they happen
    std::snprintf(buf, sizeof buf, "%-20s %7zu\n", to_string(o), n);
    out << buf;
  }
  out << "mutation score " << score_text(m.score()) << "\n";
  for (const MutantResult& r : m.mutants) {
    if (!is_problem(r.outcome)) continue;
    out << to_string(r.outcome) << ": M" << r.mutant.id << " " << r.mutant.name << " (" << r.mutant.target << ")";
    if (r.outcome == Outcome::equivalent_killed) out << ": it is not equivalent, killed by";
    if (r.outcome == Outcome::identity_killed) out << ": an identity control must survive; killed by";
    for (const std::string& t : r.killed_by) out << " " << t;
    out << "\n";
  }
  if (!m.baseline_file.empty()) {
    if (m.baseline_changes.empty())
      out << "baseline " << m.baseline_file << ": no change\n";
    else
      out << "baseline " << m.baseline_file << ": " << m.baseline_changes.size() << " changes\n";
    for (const std::string& c : m.baseline_changes) out << "  " << c << "\n";
  }
  return out.str();
}

Progress::Progress(std::string label, size_t total, bool enabled, std::string unit)
    : label_(std::move(label)), total_(total), unit_(std::move(unit)), enabled_(enabled) {}

void Progress::update(size_t done) {
  if (!enabled_) return;
  if (first_done_ == static_cast<size_t>(-1)) {
    first_done_ = done;  // results taken from the journal do not count towards the rate
    started_ = std::chrono::steady_clock::now();
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const size_t fresh = done - first_done_;
  char buf[160];
  if (fresh > 0 && elapsed > 0) {
    const double rate = static_cast<double>(fresh) / elapsed;
    std::snprintf(buf, sizeof buf, "\r[%s] %zu/%zu %s, %.2f/s, ~%.0f s left   ", label_.c_str(), done, total_, unit_.c_str(), rate,
                  static_cast<double>(total_ - done) / rate);
  } else {
    std::snprintf(buf, sizeof buf, "\r[%s] %zu/%zu %s   ", label_.c_str(), done, total_, unit_.c_str());
  }
  std::cerr << buf << std::flush;
}

void Progress::finish() {
  if (enabled_) std::cerr << "\n";
}

}  // namespace mmaemu::mutate
