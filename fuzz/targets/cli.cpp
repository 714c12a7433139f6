// The command line itself: the input is split into words and run through mmaemu::cli::run_main, the
// very code main() runs (harness/cli/cli_main.cpp), so any exception it does not map onto an exit
// status (which would abort the program, exit 134) and any sanitizer report is a crash. The
// subcommands fuzzed are those that read their inputs and finish quickly without a GPU: info, mma,
// gemm (instruction and library), compare, merge, and record's options (the fuzz build has no CUDA,
// so `record` parses its command line and stops with exit 2; its options once outlived their storage
// there). `run`, `mutate`, `bench` and `signoff` run tiers, campaigns and child processes for minutes;
// their readers have targets of their own (tier, catalogue, bench_baseline, signoff_plan, ...).
//
// `record --inputs-only` is left out too: it runs without a GPU and writes the inputs of a profile's
// every instruction (megabytes, seconds); the npy writer it uses is fuzzed through its own target.
//
// Every run happens in the scratch directory, which holds small valid inputs (a.npy b.npy c.npy for
// mma.m16n8k16 bf16, a2.npy b2.npy c2.npy for a 16x32x8 gemm, a3.npy b3.npy c3.npy sa.npy sb.npy for
// sm120's block-scaled m16n8k32 e4m3 with ue8m0 scales, algo.json, report.json, an empty directory
// `dir`), restored before a run whenever the run before changed the directory (most runs
// write nothing; restoring them every time cost more than the runs, as the inputs are written with
// fsync). A word holding '/' or equal to ".." ends the input unrun, so that nothing outside the
// scratch directory is read or written.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/core/npy.hpp"

namespace {

void put_npy(const char* name, int bytes, std::vector<size_t> shape, uint32_t value) {
  mmaemu::NpyArray a;
  a.word_bytes = bytes;
  a.shape = std::move(shape);
  a.values.assign(a.size(), value);
  mmaemu::write_npy(mmaemu::fuzz::scratch_dir() / name, a);
}

void restore_inputs() {
  mmaemu::fuzz::clear_scratch();
  put_npy("a.npy", 2, {1, 16, 16}, 0x3f80);  // bf16 1.0
  put_npy("b.npy", 2, {1, 16, 8}, 0x3f80);
  put_npy("c.npy", 4, {1, 16, 8}, 0);
  put_npy("a2.npy", 2, {16, 32}, 0x3f80);
  put_npy("b2.npy", 2, {32, 8}, 0x3f80);
  put_npy("c2.npy", 4, {16, 8}, 0);
  put_npy("a3.npy", 1, {1, 16, 32}, 0x38);  // e4m3 1.0
  put_npy("b3.npy", 1, {1, 32, 8}, 0x38);
  put_npy("c3.npy", 4, {1, 16, 8}, 0);
  put_npy("sa.npy", 1, {1, 16, 1}, 127);  // ue8m0 1.0
  put_npy("sb.npy", 1, {1, 1, 8}, 127);
  mmaemu::fuzz::write_input("algo.json",
                            R"({"algo_id": 66, "tile": 20, "stages": 16, "split_k": 1, "reduction": 0, "swizzle": 0,
"custom": 0, "inner_shape": 0, "cluster": 0, "workspace": 0})");
  mmaemu::fuzz::write_input("report.json", R"({"schema": "mmaemu-report/1", "suites": []})");
  std::filesystem::create_directories(mmaemu::fuzz::scratch_dir() / "dir");
}

// What the scratch directory holds: every entry's name and, for files, their bytes (not their times:
// the file system's clock is too coarse to tell a run's rewrite of a file from the restore before it).
std::string listing() {
  std::string out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(mmaemu::fuzz::scratch_dir())) {
    out += e.path().string() + '\x1f';
    std::error_code ec;
    if (e.is_regular_file(ec)) {
      std::ifstream in(e.path(), std::ios::binary);
      out.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    out += '\x1e';
  }
  return out;
}

void restore_inputs_if_changed() {
  static std::string restored;  // the listing right after the last restore; empty before the first
  if (!restored.empty() && listing() == restored) return;
  restore_inputs();
  restored = listing();
}

bool allowed(const std::vector<std::string>& words) {
  static const std::array<const char*, 8> first{"info", "mma", "gemm", "compare", "merge", "record", "--version", "--help"};
  static const std::array<const char*, 5> never{"run", "mutate", "bench", "signoff", "--inputs-only"};
  if (words.empty() || std::find(first.begin(), first.end(), words[0]) == first.end()) return false;
  for (const std::string& w : words) {
    if (w.find('/') != std::string::npos || w == ".." || w.find('\0') != std::string::npos) return false;
    if (std::find(never.begin(), never.end(), w) != never.end()) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The commands' tables and help go to stdout; libFuzzer and the sanitizers report on stderr.
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) dup2(null, STDOUT_FILENO);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words = mmaemu::fuzz::split_words(mmaemu::fuzz::as_text(data, size));
  if (!allowed(words)) return 0;
  restore_inputs_if_changed();
  words.insert(words.begin(), "mmaemu");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // Relative paths resolve in the scratch directory; the fuzzer's own cwd is restored after the run
  // (pass -artifact_prefix with an absolute path so that a crash input is written where you look).
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(mmaemu::fuzz::scratch_dir());
  const int status = mmaemu::cli::run_main(static_cast<int>(words.size()), argv.data());
  std::filesystem::current_path(cwd);
  if (status < 0 || status > 2) __builtin_trap();  // the contract: 0, 1 or 2 (77 is run --ctest only)
  return 0;
}
