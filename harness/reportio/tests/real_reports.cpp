#include "harness/reportio/tests/real_reports.hpp"

#include <gtest/gtest.h>

#include "harness/core/atomic_file.hpp"
#include "harness/tiers/runner.hpp"
#include "harness/reportio/json_file.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::testing {
namespace fs = std::filesystem;

namespace {

// The report, and whether the run passed.
std::pair<std::string, bool> run_the_tiers() {
  TempDir dir;
  RunOptions o;
  o.tier_files = {fs::path(MMAEMU_SOURCE_DIR) / "tiers/T2.yaml", fs::path(MMAEMU_SOURCE_DIR) / "tiers/T3.yaml"};
  o.only_suites = {"h200-fixtures", "km-external", "h200-cublaslt-first-rows", "t3-host-quick"};
  o.report_dir = dir.path();
  o.report_stem = "real";
  o.quiet = true;
  const int status = run_tiers(o);
  EXPECT_EQ(status, 0) << "the real run did not pass";
  return {reportio::read_text_file(dir / "real.json"), status == 0};
}

// This build of the test program: a report kept by another build may have been rendered otherwise.
std::string build_key() {
  const fs::path self = fs::read_symlink("/proc/self/exe");
  const auto stamp = static_cast<unsigned long long>(fs::last_write_time(self).time_since_epoch().count());
  return std::to_string(fs::file_size(self)) + "-" + std::to_string(stamp);
}

}  // namespace

// The run takes seconds and CTest starts every test in a process of its own: the first keeps the
// report beside the test program for the others (written atomically, so that tests run in parallel
// see all of it or none).
const std::string& real_run_json() {
  static const std::string text = [] {
    const fs::path kept = fs::path(MMAEMU_REPORTIO_TEST_DIR) / ("real-run-" + build_key() + ".json");
    if (fs::exists(kept)) return reportio::read_text_file(kept);
    auto [fresh, passed] = run_the_tiers();
    if (passed) write_file_atomic(kept, fresh);  // a failed run fails every test that reads it
    return fresh;
  }();
  return text;
}

const std::string& real_kill_matrix_json() {
  static const std::string text = reportio::read_text_file(fs::path(MMAEMU_SOURCE_DIR) / "mutants/baseline-cpu.json");
  return text;
}

std::vector<RunReport> split_run(const RunReport& run, unsigned n) {
  std::vector<RunReport> shards(n, run);
  for (unsigned i = 0; i < n; ++i) {
    shards[i].shard = {i + 1, n};
    shards[i].suites.clear();
  }
  for (const SuiteResult& s : run.suites) shards[s.position % n].suites.push_back(s);
  for (RunReport& r : shards) r.planned = r.suites.size();  // a shard plans its own suites
  return shards;
}

std::vector<mutate::KillMatrix> split_matrix(const mutate::KillMatrix& m, unsigned n) {
  std::vector<mutate::KillMatrix> shards(n, m);
  for (unsigned i = 0; i < n; ++i) {
    shards[i].shard = {i + 1, n};
    shards[i].mutants.clear();
  }
  for (size_t p = 0; p < m.mutants.size(); ++p) shards[p % n].mutants.push_back(m.mutants[p]);
  for (auto& s : shards) s.planned = s.mutants.size();
  return shards;
}

std::vector<std::string> shard_sources(size_t n) {
  std::vector<std::string> out;
  for (size_t i = 1; i <= n; ++i) out.push_back("shard-" + std::to_string(i) + ".json");
  return out;
}

}  // namespace mmaemu::testing
