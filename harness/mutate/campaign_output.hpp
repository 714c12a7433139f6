// What a campaign shows and writes: the reports (JSON and Markdown, atomically), the verdict table
// on stdout, and the progress line on stderr (only when it is a terminal).
#pragma once
#include <chrono>
#include <filesystem>
#include <string>

#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::mutate {

// <dir>/<stem>.json and <dir>/<stem>.md, each written atomically.
void write_reports(const KillMatrix& m, const std::filesystem::path& dir, const std::string& stem);

// The short table: counts per outcome, the score, the mutants that fail the campaign, the changes
// against the baseline.
std::string verdict_table(const KillMatrix& m, double seconds, unsigned jobs);

class Progress {
 public:
  // `unit`: what is counted ("mutants", "variants built").
  Progress(std::string label, size_t total, bool enabled, std::string unit = "mutants");
  void update(size_t done);  // "\r[T4-cpu] 12/50 mutants, 0.4/s, ~95 s left"
  void finish();

 private:
  std::string label_;
  size_t total_;
  std::string unit_;
  bool enabled_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  size_t first_done_ = static_cast<size_t>(-1);
};

}  // namespace mmaemu::mutate
