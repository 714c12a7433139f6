// mmaemu-bench-gemm: GEMM throughput of the emulation backends beside native cuBLASLt.
// Exit status: 0 every case measured or declined with a reason; 1 a case failed (a CUDA or kernel
// error: never a measurement); 2 unusable input or no usable CUDA device.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "bench/cuda_support.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/gemm_report.hpp"

namespace {

using namespace mmaemu;

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

ref::FormatId format_option(const std::string& name) {
  const auto f = ref::parse_format(name);
  if (!f) throw InputError("--format", "unknown format '" + name + "'");
  return *f;
}

}  // namespace

int main(int argc, char** argv) {
  bench::GemmBenchOptions o;
  std::vector<std::string> shapes, formats;
  std::string arch = "sm90", family = "mma", json_path = "bench-gemm.json", md_path;
  double workspace_mib = 32;

  CLI::App app{"GEMM throughput (TMAC/s) of the emulation backends beside native cuBLASLt, timed with CUDA events"};
  app.add_option("--backend", o.backends, "backend by registry name (repeatable)")->capture_default_str();
  app.add_option("--format", formats, "fp16, bf16, tf32, e4m3, e5m2 (repeatable; default all five)");
  app.add_option("--shape", shapes, "MxNxK (repeatable; default 4096x4096x4096)");
  app.add_option("--arch", arch, "architecture whose instructions the backends emulate")->capture_default_str();
  app.add_option("--family", family, "instruction family emulated: mma (mma.sync) or wgmma")
      ->check(CLI::IsMember({"mma", "wgmma"}))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed runs before the samples")->capture_default_str();
  app.add_option("--samples", o.samples, "timed samples per case (20 or more for a report)")->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the realistic operands")->capture_default_str();
  std::vector<std::string> instruction_n;
  app.add_option("--n", instruction_n, "BACKEND=N: that backend emulates wgmma at N (e.g. tc=256; default 8; repeatable)");
  app.add_flag("!--no-native", o.native, "skip the cuBLASLt rows");
  app.add_option("--workspace-mib", workspace_mib, "cuBLASLt workspace")->capture_default_str();
  app.add_option("--bandwidth-tbs", o.bandwidth_tbs, "memory bandwidth of the memory floor (TB/s)")
      ->capture_default_str();
  app.add_option("--device", o.device, "CUDA device index")->capture_default_str();
  app.add_option("--commit", o.commit, "git commit to record (default: the one CMake was configured at)");
  app.add_option("--json", json_path, "JSON report (written atomically)")->capture_default_str();
  app.add_option("--markdown", md_path, "Markdown table (default: the JSON path with .md)");
  CLI11_PARSE(app, argc, argv);

  try {
    if (!shapes.empty()) {
      o.shapes.clear();
      for (const auto& s : shapes) o.shapes.push_back(bench::parse_shape(s));
    }
    if (!formats.empty()) {
      o.formats.clear();
      for (const auto& f : formats) o.formats.push_back(format_option(f));
    }
    for (const std::string& item : instruction_n) {
      const size_t eq = item.find('=');
      int n = 0;
      if (eq == std::string::npos || eq == 0 || std::from_chars(item.data() + eq + 1, item.data() + item.size(), n).ptr != item.data() + item.size())
        throw InputError("--n", "expected BACKEND=N, got '" + item + "'");
      o.instruction_n[item.substr(0, eq)] = n;
    }
    const auto a = ref::parse_arch(arch);
    if (!a) throw InputError("--arch", "unknown architecture '" + arch + "'");
    o.arch = *a;
    o.family = family == "wgmma" ? ref::InstrFamily::wgmma : ref::InstrFamily::mma_sync;
    if (!(workspace_mib >= 0)) throw InputError("--workspace-mib", "must not be negative");
    o.workspace_bytes = static_cast<size_t>(workspace_mib * 1024 * 1024);
    o.command = command_line(argc, argv);
    if (md_path.empty()) md_path = std::filesystem::path(json_path).replace_extension(".md").string();

    const bool tty = isatty(STDERR_FILENO);
    auto progress = [tty](const bench::BenchStep& s) {
      if (tty) std::cerr << "[bench] " << s.what << std::endl;
    };
    const InterruptGuard guard;  // SIGINT / SIGTERM: finish the case at hand, write every finished one
    const bench::GemmBenchResult result = bench::run_gemm_bench(o, progress);
    const std::string table = bench::gemm_report_markdown(result);
    write_file_atomic(json_path, bench::gemm_report_json(result, o).dump(2) + "\n");
    write_file_atomic(md_path, table);
    std::cout << table;
    if (result.interrupted) {
      std::cerr << "mmaemu-bench-gemm: stopped by " << interrupt_signal_name() << "; " << json_path
                << " holds the cases that finished\n";
      return interrupted_exit_status();
    }
    if (result.any_error()) {
      std::cerr << "mmaemu-bench-gemm: a case failed (see the 'error' rows in " << json_path << ")\n";
      return kExitCheckFailed;
    }
    return kExitOk;
  } catch (const InputError& e) {
    std::cerr << "mmaemu-bench-gemm: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const bench::GpuError& e) {
    std::cerr << "mmaemu-bench-gemm: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "mmaemu-bench-gemm: " << e.what() << "\n";
    return kExitCheckFailed;
  }
}
