// Smoke test of mmaemu-bench-gemm: runs it at a tiny shape with two samples and checks that the JSON
// parses and holds every row (measured with the samples asked for, or declined with a reason), and
// that the Markdown table was written. Never asserts a speed.
// Usage: bench-gemm-smoke BENCH_EXE OUT_DIR. Exit 77 (skipped) when there is no CUDA device.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bench/cuda_support.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: bench-gemm-smoke BENCH_EXE OUT_DIR\n";
    return 2;
  }
  if (mmaemu::bench::cuda_device_count() == 0) {
    std::cout << "SKIP: no CUDA device\n";
    return 77;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  const auto json_path = out / "smoke.json", md_path = out / "smoke.md";
  std::filesystem::remove(json_path);
  std::filesystem::remove(md_path);

  const std::vector<std::string> backends{"simt", "tiled", "tc"};
  const std::vector<std::string> formats{"fp16", "bf16", "tf32", "e4m3", "e5m2"};
  std::string cmd = std::string("'") + argv[1] + "' --shape 256x256x256 --samples 2 --warmup 1";
  for (const auto& b : backends) cmd += " --backend " + b;
  cmd += " --json '" + json_path.string() + "' --markdown '" + md_path.string() + "'";
  std::cout << cmd << "\n" << std::flush;
  const int status = std::system(cmd.c_str());
  expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the benchmark exits 0 (status " + std::to_string(status) + ")");

  std::ifstream in(json_path);
  expect(in.good(), "the JSON report exists");
  if (!in.good()) return 1;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << "FAIL: the JSON report parses: " << e.what() << "\n";
    return 1;
  }
  expect(j.value("schema", "") == "mmaemu-bench-gemm/1", "schema mmaemu-bench-gemm/1");
  for (const char* key : {"gpu", "sm_count", "driver", "cuda_runtime", "cublaslt", "commit"})
    expect(j["provenance"].contains(key), std::string("provenance has ") + key);

  const mmaemu::bench::DeviceFacts gpu = mmaemu::bench::device_facts(0);
  const bool hopper = gpu.cc_major == 9 && gpu.cc_minor == 0;
  size_t measured = 0;
  std::set<std::string> seen;
  for (const auto& row : j["rows"]) {
    const std::string id = row["format"].get<std::string>() + "/" + row["backend"].get<std::string>();
    seen.insert(id);
    const std::string st = row["status"];
    expect(st == "measured" || st == "declined", id + ": measured or declined, not '" + st + "' (" +
                                                     row.value("reason", "") + ")");
    if (st == "declined") {
      expect(!row["reason"].get<std::string>().empty(), id + ": a declined row says why");
      // Only tc may decline, and only on a GPU whose own target is not the benchmark's (sm90): a smoke
      // run whose rows all declined would otherwise pass having measured nothing.
      expect(row["backend"] == "tc" && !hopper, id + ": declined (" + row.value("reason", "") + ")");
    }
    if (st == "measured") ++measured;
    if (st == "measured") {
      expect(row["samples_ms"].size() == 2, id + ": two samples");
      expect(row["tmacs"]["median"].get<double>() > 0, id + ": a positive rate");
      expect(row["floor"].is_object(), id + ": a floor note");
    }
  }
  for (const auto& f : formats) {
    std::vector<std::string> names = backends;
    names.push_back("cublaslt");
    if (f == "e4m3" || f == "e5m2") names.push_back("cublaslt-fast-accum");
    for (const auto& b : names) expect(seen.count(f + "/" + b) == 1, "a row for " + f + "/" + b);
  }

  std::ifstream md(md_path);
  std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  expect(text.find("| shape | format | backend |") != std::string::npos, "the Markdown table was written");

  expect(measured > 0, "at least one row was measured");
  if (failures) return 1;
  std::cout << "OK: " << j["rows"].size() << " rows, " << measured << " measured\n";
  return 0;
}
