#include "bench/cpu/process_bench.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "bench/cpu/instruction_tiles.hpp"
#include "bench/cpu/python_script.hpp"
#include "harness/core/child_process.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/npy.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::bench {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

// One untimed run (files into the page cache, the program's pages read), then `repetitions` timed ones.
// The row becomes an error at the first run that fails; `before` runs ahead of every run, untimed.
struct Runs {
  ChildRequest request;
  std::function<void()> before;
  std::string fails;  // empty: every run exited 0
};
void run_timed(const ProcessBenchOptions& o, Runs& runs, ProcessRow& row) {
  row.command = joined(runs.request.argv);
  long peak_kb = 0;
  for (int r = -1; r < o.repetitions; ++r) {
    if (runs.before) runs.before();
    const ChildResult c = run_child(runs.request, interrupt_flag());
    if (c.end != ChildResult::End::exited || c.exit_code != 0) {
      runs.fails = c.end == ChildResult::End::not_started ? "could not start: " + c.error
                   : c.end == ChildResult::End::exited    ? "exit " + std::to_string(c.exit_code)
                   : c.end == ChildResult::End::timed_out ? "timed out"
                   : c.end == ChildResult::End::interrupted ? "interrupted"
                                                            : "killed by " + signal_name(c.signal);
      runs.fails += " (log: " + runs.request.log.string() + ")";
      row.status = "error";
      row.reason = row.command + ": " + runs.fails;
      return;
    }
    if (r < 0) continue;
    row.seconds.push_back(c.seconds);
    peak_kb = std::max(peak_kb, c.peak_rss_kb);
  }
  row.wall = summarize(row.seconds);
  row.peak_rss_mb = static_cast<double>(peak_kb) / 1024.0;
  row.status = "measured";
}

ProcessRow start_row(const ProcessBenchOptions& o) {
  ProcessRow row;
  row.what = "start";
  row.implementation = "mmaemu";
  Runs runs;
  runs.request.argv = {o.mmaemu, "--version"};
  runs.request.workdir = o.scratch;
  runs.request.log = o.scratch / "start.log";
  run_timed(o, runs, row);
  if (row.wall) row.rate = rate_of(*row.wall, 1.0);
  return row;
}

// A row of `implementation` over the instruction's tiles.
ProcessRow tiles_row(const ref::InstructionModel& m, const char* implementation, size_t outputs) {
  ProcessRow row;
  row.what = "mma";
  row.arch = std::string(ref::arch_name(m.arch));
  row.instruction = m.instr.name;
  row.implementation = implementation;
  row.outputs = outputs;
  return row;
}

ProcessRow mma_row(const ProcessBenchOptions& o, const ref::InstructionModel& m, const fs::path& dir,
                   const std::vector<uint32_t>& want) {
  ProcessRow row = tiles_row(m, "mmaemu", want.size());
  Runs runs;
  runs.request.argv = {o.mmaemu, "mma", "--arch", row.arch, "--instr", m.instr.name, "--a", (dir / "a.npy").string(),
                       "--b", (dir / "b.npy").string(), "--c", (dir / "c.npy").string(), "--out",
                       (dir / "d-mmaemu.npy").string(), "--backend", "cpu"};
  runs.request.workdir = dir;
  runs.request.log = dir / "mmaemu.log";
  runs.request.environment = {{"MMAEMU_THREADS", "1"}};
  runs.before = [&] { fs::remove(dir / "d-mmaemu.npy"); };
  run_timed(o, runs, row);
  if (row.status != "measured") return row;
  const NpyArray d = read_npy(dir / "d-mmaemu.npy");
  const auto differs = std::mismatch(d.values.begin(), d.values.end(), want.begin(), want.end());
  if (d.values.size() != want.size() || differs.first != d.values.end()) {
    row.status = "error";
    row.reason = "mmaemu mma differs from the reference at output " + std::to_string(differs.first - d.values.begin());
    return row;
  }
  row.rate = rate_of(*row.wall, static_cast<double>(row.outputs));
  return row;
}

ProcessRow mmasim_row(const ProcessBenchOptions& o, const ref::InstructionModel& m, const fs::path& dir,
                      const std::vector<uint32_t>& want) {
  ProcessRow row = tiles_row(m, "mmasim", want.size());
  Runs runs;
  runs.request.argv = {python_interpreter(o.python), fs::absolute(o.script).string(), "--dir", fs::absolute(dir).string(),
                       "--arch", row.arch, "--instr", m.instr.name, "--repetitions", "1"};
  runs.request.workdir = dir;
  runs.request.log = dir / "mmasim.log";
  runs.request.environment = {{"OMP_NUM_THREADS", "1"}, {"MKL_NUM_THREADS", "1"}};
  runs.before = [&] { fs::remove(dir / "d.npy"); fs::remove(dir / "result.json"); };
  run_timed(o, runs, row);
  nlohmann::json result;
  if (std::ifstream in(dir / "result.json"); in) result = nlohmann::json::parse(in, nullptr, false);
  if (row.status != "measured") {
    // The script's own "cannot run MMA-Sim here" (exit 3, its reason in result.json) is a skip.
    if (result.is_object() && result.contains("skipped")) {
      row.status = "skipped";
      row.reason = result["skipped"].get<std::string>();
    } else if (runs.fails.rfind("could not start", 0) == 0) {
      row.status = "skipped";
      row.reason = "no Python to run MMA-Sim (" + python_interpreter(o.python) + "; set MMAEMU_PYTHON): " + runs.fails;
    }
    return row;
  }
  const NpyArray d = read_npy(dir / "d.npy");
  size_t equal = 0;
  for (size_t i = 0; i < want.size() && i < d.values.size(); ++i) equal += d.values[i] == want[i];
  row.equal_to_reference = equal;
  if (equal != want.size())
    row.reason = "MMA-Sim (a model) gives other bits than mmaemu's reference on " + std::to_string(want.size() - equal) +
                 " of " + std::to_string(want.size()) + " outputs";
  row.rate = rate_of(*row.wall, static_cast<double>(row.outputs));
  return row;
}

}  // namespace

std::string ProcessRow::key() const {
  if (what == "start") return "process/start/" + implementation;
  return "process/" + what + "/" + arch + "/" + instruction + "/" + implementation;
}

std::string ProcessRow::unit() const { return what == "start" ? "starts/s" : "outputs/s"; }

std::vector<ProcessRow> run_process_bench(const ProcessBenchOptions& o, const BenchProgress& progress) {
  if (o.repetitions < 1) throw InputError("", "repetitions must be at least 1");
  if (o.tiles < 1) throw InputError("", "tiles must be at least 1");
  fs::create_directories(o.scratch);
  const size_t total = 1 + 2 * o.instructions.size();
  size_t done = 0;
  std::vector<ProcessRow> rows;
  rows.push_back(start_row(o));
  if (progress) progress(++done, total, "mmaemu --version");
  for (const std::string& name : o.instructions) {
    const ref::InstructionModel& m = find_instruction(o.arch, name);
    const fs::path dir = o.scratch / name;
    fs::create_directories(dir);
    const InstructionTiles tiles = make_instruction_tiles(m, o.tiles, o.seed);
    write_instruction_tiles(m, tiles, dir);
    // The reference's D, in this process: what both programs' files are held against.
    std::vector<uint32_t> want(kernels::c_count(tiles.shape), kernels::kPoison);
    const kernels::Backend* reference = kernels::find_backend("reference");
    if (!reference) throw kernels::KernelError("this build has no reference backend");
    reference->run({&m, tiles.shape, tiles.A.data(), tiles.B.data(), tiles.C.data(), want.data()});
    ProcessRow ours = mma_row(o, m, dir, want);
    if (progress) progress(++done, total, name + " mmaemu mma");
    ProcessRow theirs = mmasim_row(o, m, dir, want);
    if (progress) progress(++done, total, name + " MMA-Sim");
    if (ours.rate && theirs.rate && theirs.rate->median > 0) ours.vs_mmasim = ours.rate->median / theirs.rate->median;
    rows.push_back(std::move(ours));
    rows.push_back(std::move(theirs));
  }
  return rows;
}

}  // namespace mmaemu::bench
