#include "bench/cpu/harness_rate.hpp"

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/core/child_process.hpp"
#include "harness/core/json_integer.hpp"
#include "harness/core/interrupt_guard.hpp"

namespace mmaemu::bench {
namespace {

namespace fs = std::filesystem;

// The one suite a run's JSON report holds (schema mmaemu-report/1).
nlohmann::json suite_of_report(const fs::path& report) {
  std::ifstream in(report);
  if (!in) throw std::runtime_error("no report at " + report.string());
  const nlohmann::json j = nlohmann::json::parse(in);
  const auto& suites = j.at("suites");
  if (suites.size() != 1) throw std::runtime_error(report.string() + " holds " + std::to_string(suites.size()) + " suites, not 1");
  return suites.front();
}

std::string end_of(const ChildResult& r) {
  switch (r.end) {
    case ChildResult::End::exited: return "exit status " + std::to_string(r.exit_code);
    case ChildResult::End::signalled: return "killed by " + signal_name(r.signal);
    case ChildResult::End::timed_out: return "timed out after " + std::to_string(r.seconds) + " s";
    case ChildResult::End::interrupted: return "interrupted";
    case ChildResult::End::not_started: return "not started: " + r.error;
  }
  return "?";
}

// One run of one case; fills the row's samples, or its status and reason when the run did not pass.
void run_once(const HarnessRateOptions& o, const HarnessCase& c, int repetition, HarnessRow& row) {
  const std::string stem = row.name + "-" + std::to_string(repetition);
  const fs::path log = o.scratch / (stem + ".log");
  ChildRequest request;
  request.argv = {o.mmaemu, "run", fs::absolute(c.tier_file).string(), "--suite", c.suite, "--quiet",
                  "--report-dir", fs::absolute(o.scratch).string(), "--report-stem", stem};
  request.workdir = fs::current_path();
  request.log = log;
  request.timeout_seconds = o.timeout_seconds;
  // An interrupted `mmaemu bench` (core/interrupt_guard.hpp) stops its child runs too.
  const ChildResult r = run_child(request, interrupt_flag());
  if (r.end != ChildResult::End::exited || r.exit_code != 0) {
    row.status = "error";
    row.reason = "mmaemu run " + end_of(r) + " (log: " + log.string() + ")";
    return;
  }
  const nlohmann::json suite = suite_of_report(o.scratch / (stem + ".json"));
  const std::string verdict = suite.at("verdict").get<std::string>();
  if (verdict == "skip") {
    row.status = "skipped";
    row.reason = suite.at("reason").get<std::string>();
    return;
  }
  if (verdict != "pass") {
    row.status = "error";
    row.reason = "the suite's verdict is " + verdict + " (log: " + log.string() + ")";
    return;
  }
  row.compared = json_integer<size_t>(suite.at("compared"));
  row.seconds.push_back(r.seconds);
  row.samples.push_back(r.seconds > 0 ? static_cast<double>(row.compared) / r.seconds : 0.0);
}

}  // namespace

std::vector<HarnessRow> run_harness_rate(const HarnessRateOptions& o, const BenchProgress& progress) {
  fs::create_directories(o.scratch);
  std::vector<HarnessRow> rows;
  const size_t total = o.cases.size() * static_cast<size_t>(o.repetitions);
  size_t done = 0;
  for (const HarnessCase& c : o.cases) {
    HarnessRow row;
    row.name = c.name;
    row.tier_file = c.tier_file.string();
    row.suite = c.suite;
    for (int i = 0; i < o.repetitions && row.status.empty(); ++i) {
      try {
        run_once(o, c, i, row);
      } catch (const std::exception& e) {
        row.status = "error";
        row.reason = e.what();
      }
      if (progress) progress(++done, total, c.name);
    }
    done = std::max(done, static_cast<size_t>(rows.size() + 1) * static_cast<size_t>(o.repetitions));
    if (row.status.empty()) {
      row.status = "measured";
      row.rate = summarize(row.samples);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace mmaemu::bench
