// A capture: the GEMM calls a model made on a GPU, each as cuBLASLt saw it, with the configuration the
// library ran for it, so that replaying the model elsewhere takes the library's own choice for each call
// instead of the resolver's prediction. Written on the GPU (mmaemu.torch.capture) or from cuBLASLt's log
// of a run (scripts/torch_fixture/capture_from_log.py); read by `mmaemu gemm --calls`, the Python
// package's emulate(calls=...) and torch_gemm(calls=...).
//
// The file is JSON Lines (schema mmaemu-capture/1), so that every error names its line:
//   line 1: {"schema": "mmaemu-capture/1", "library": {"name": "cublasLt", "version": 130100,
//            "sha256": "..."}, "gpu": {"name": "...", "sm_count": 132, "driver": "..."},
//            "torch": "2.11.0+cu130", "source": "how it was made"}
//   then one line per call: {"op": "linear", "call": {an LtCall, as recordings write it},
//            "config": {an LtAlgoConfig, as recordings write it}}
// `library.sha256`, `gpu.driver`, `torch`, `source` and `op` are optional; lines that are blank are skipped.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

inline constexpr const char* kCaptureSchema = "mmaemu-capture/1";

struct CaptureHeader {
  std::string library_name;  // "cublasLt"
  long long library_version = 0;  // cublasLtGetVersion(): 130100 for 13.1.0
  std::string library_sha256, gpu, driver, torch, source;
  int sm_count = 0;
};

struct CapturedCall {
  std::string op;        // the framework's op ("linear", "bmm", ...), for people
  LtCall call;           // as the library saw it
  LtAlgoConfig config;   // what the library ran
  size_t line = 0;       // in the file, 1-based
};

class Capture {
 public:
  // Reads a capture; InputError at "file:line:column" for a line that is not JSON or not what the schema
  // says, and naming the file when it cannot be read.
  static Capture read(const std::filesystem::path& file);

  const std::filesystem::path& file() const { return file_; }
  const CaptureHeader& header() const { return header_; }
  const std::vector<CapturedCall>& calls() const { return calls_; }

  // The captured call the library saw as `call` (types, compute type, layout, M, N, K, batch count,
  // epilogue, fast accumulation, workspace limit; not alpha, beta or scales, which the heuristic's choice
  // does not depend on), or none. Two captured lines with one key and other configurations make the
  // file ambiguous: read() refuses it.
  const CapturedCall* find(const LtCall& call) const;
  static std::string key(const LtCall& call);

  // Why this capture cannot stand for a library profile of `library_version` on `sm_count` SMs (another
  // library build or SM count picks other configurations), or none.
  std::optional<std::string> incompatible(long long library_version, int sm_count) const;

 private:
  std::filesystem::path file_;
  CaptureHeader header_;
  std::vector<CapturedCall> calls_;
  std::map<std::string, size_t> by_key_;
};

// One call's line as the file holds it (no newline).
std::string capture_line(const CapturedCall& c);
std::string capture_header_line(const CaptureHeader& h);

}  // namespace mmaemu::lt
