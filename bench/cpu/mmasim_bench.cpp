#include "bench/cpu/mmasim_bench.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "bench/cpu/instruction_tiles.hpp"
#include "bench/cpu/python_script.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/npy.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::bench {
namespace {

namespace fs = std::filesystem;

// One backend's passes over the tiles: its D (checked by the caller) and outputs per second per pass.
std::vector<double> time_backend(const kernels::Backend& backend, const ref::InstructionModel& m, const InstructionTiles& t,
                                 int repetitions, std::vector<uint32_t>& D) {
  D.assign(kernels::c_count(t.shape), kernels::kPoison);
  const kernels::GemmProblem problem{&m, t.shape, t.A.data(), t.B.data(), t.C.data(), D.data()};
  backend.run(problem);  // untimed: page faults, thread start-up, caches
  std::vector<double> rates;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    backend.run(problem);
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - start;
    rates.push_back(static_cast<double>(D.size()) / std::max(s.count(), 1e-9));
  }
  return rates;
}

// MMA-Sim's row: its child's passes over the tiles, and its D against the reference's.
MmasimRow run_mmasim(const MmasimBenchOptions& o, const ref::InstructionModel& m, const InstructionTiles& t,
                     const std::vector<uint32_t>& want, MmasimRow row) {
  const fs::path dir = o.scratch / ("mmasim-" + m.instr.name);
  fs::create_directories(dir);
  const ref::Instruction& in = m.instr;
  write_instruction_tiles(m, t, dir);
  fs::remove(dir / "d.npy");
  PythonScript script;
  script.python = o.python;
  script.argv = {fs::absolute(o.script).string(), "--dir", fs::absolute(dir).string(), "--arch",
                 std::string(ref::arch_name(m.arch)), "--instr", in.name, "--repetitions", std::to_string(o.repetitions)};
  script.dir = dir;
  script.log_name = "mmasim.log";
  script.result = dir / "result.json";
  script.environment = {{"OMP_NUM_THREADS", "1"}, {"MKL_NUM_THREADS", "1"}};
  script.timeout_seconds = o.timeout_seconds;
  script.what = "MMA-Sim";
  script.required_key = "seconds";
  const PythonScriptOutcome run = run_python_script(script);
  if (run.end != PythonScriptOutcome::End::ran) {
    row.status = run.end == PythonScriptOutcome::End::skipped ? "skipped" : "error";
    row.reason = run.why;
    return row;
  }
  const nlohmann::json& result = run.result;
  for (const auto& s : result["seconds"]) row.samples.push_back(static_cast<double>(row.outputs) / std::max(s.get<double>(), 1e-9));
  row.versions = "mmasim " + result.value("mmasim", std::string("?")) + ", torch " + result.value("torch", std::string("?")) +
                 ", python " + result.value("python", std::string("?"));
  const NpyArray d = read_npy(dir / "d.npy");
  size_t equal = 0;
  for (size_t i = 0; i < want.size() && i < d.values.size(); ++i) equal += d.values[i] == want[i];
  row.equal_to_reference = equal;
  row.status = "measured";
  row.rate = summarize(row.samples);
  if (equal != want.size())
    row.reason = "MMA-Sim (a model) gives other bits than mmaemu's reference on " + std::to_string(want.size() - equal) +
                 " of " + std::to_string(want.size()) + " outputs";
  return row;
}

}  // namespace

std::string MmasimRow::key() const {
  return std::string("mmasim/") + arch + "/" + instruction + "/" + implementation + "/" +
         (all_threads ? "t-all" : "t" + std::to_string(threads));
}

std::vector<MmasimRow> run_mmasim_bench(const MmasimBenchOptions& o, const BenchProgress& progress) {
  if (o.repetitions < 1) throw InputError("", "repetitions must be at least 1");
  if (o.tiles < 1) throw InputError("", "tiles must be at least 1");
  const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  struct Plan {
    const char* backend;
    int threads;
    bool all_threads;
  };
  std::vector<Plan> plans = {{"reference", 1, false}, {"host", 1, false}, {"cpu", 1, false}};
  if (all > 1) plans.push_back({"cpu", all, true});
  const size_t total = o.instructions.size() * (plans.size() + 1);
  size_t done = 0;
  std::vector<MmasimRow> rows;
  for (const std::string& name : o.instructions) {
    const ref::InstructionModel& m = find_instruction(o.arch, name);
    const InstructionTiles tiles = make_instruction_tiles(m, o.tiles, o.seed);
    const auto base = [&](const std::string& impl, int threads, bool all_threads) {
      MmasimRow row;
      row.arch = std::string(ref::arch_name(o.arch));
      row.instruction = name;
      row.implementation = impl;
      row.threads = threads;
      row.all_threads = all_threads;
      row.outputs = kernels::c_count(tiles.shape);
      return row;
    };
    std::vector<uint32_t> want;
    const size_t first = rows.size();
    for (const Plan& p : plans) {
      MmasimRow row = base(p.backend, p.threads, p.all_threads);
      const kernels::Backend* backend = kernels::find_backend(p.backend);
      try {
        if (!backend) throw kernels::KernelError("this build has no backend " + std::string(p.backend));
        if (auto why = backend->declines(m, tiles.shape, false)) throw kernels::KernelError(why->detail);
        kernels::cpu::set_threads(p.threads);
        std::vector<uint32_t> D;
        row.samples = time_backend(*backend, m, tiles, o.repetitions, D);
        kernels::cpu::set_threads(0);
        if (want.empty()) want = D;  // the reference runs first
        const auto differs = std::mismatch(D.begin(), D.end(), want.begin());
        if (differs.first != D.end()) {
          row.status = "error";
          row.reason = std::string(p.backend) + " differs from the reference at output " +
                       std::to_string(differs.first - D.begin());
        } else {
          row.status = "measured";
          row.rate = summarize(row.samples);
        }
      } catch (const std::exception& e) {
        kernels::cpu::set_threads(0);
        row.status = "error";
        row.reason = e.what();
      }
      rows.push_back(std::move(row));
      if (progress) progress(++done, total, name + " " + p.backend);
    }
    if (want.empty()) {
      MmasimRow row = base(kMmasim, 1, false);
      row.status = "skipped";
      row.reason = "no reference bits to compare MMA-Sim's with";
      rows.push_back(std::move(row));
    } else {
      rows.push_back(run_mmasim(o, m, tiles, want, base(kMmasim, 1, false)));
    }
    if (progress) progress(++done, total, name + " mmasim");
    const MmasimRow& theirs = rows.back();
    if (theirs.rate && theirs.rate->median > 0)
      for (size_t i = first; i + 1 < rows.size(); ++i)
        if (rows[i].rate) rows[i].vs_mmasim = rows[i].rate->median / theirs.rate->median;
  }
  return rows;
}

}  // namespace mmaemu::bench
