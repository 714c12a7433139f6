// Live cuBLASLt on this machine's GPU: the heuristic's choices for a call, and the call itself run
// with one of them. Built only with CUDA; the rest of harness/cublaslt is host-only.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

// One algorithm the heuristic offered, with the opaque handle cuBLASLt needs to run it.
struct LtChoice {
  LtAlgoConfig config;
  std::vector<uint8_t> opaque;  // the cublasLtMatmulAlgo_t bytes
};

// What a call gave: D's raw bits (row-major contract, widened to 32), or the library's refusal.
struct LtOutcome {
  std::optional<std::string> rejected;  // "heuristic: CUBLAS_STATUS_NOT_SUPPORTED", "matmul: ..."
  std::vector<uint32_t> d;              // D[M][N]
};

// A call staged on the device for repeated launches (a benchmark's timed loop, or one run): operands
// uploaded in the library layout, descriptors built, the algorithm fixed, D poisoned. Lives no longer
// than the session that staged it.
class LtStagedCall {
 public:
  ~LtStagedCall();
  LtStagedCall(const LtStagedCall&) = delete;
  LtStagedCall& operator=(const LtStagedCall&) = delete;

  // Enqueues one cublasLtMatmul on `stream` (a cudaStream_t; null: the legacy default stream) without
  // waiting. Returns the library's refusal ("matmul: CUBLAS_STATUS_NOT_SUPPORTED (...)"), empty when
  // it accepted the call.
  std::optional<std::string> launch(void* stream = nullptr);

  // Waits for the device and reads D back (row-major contract, widened to 32).
  std::vector<uint32_t> read_d();

 private:
  friend class LtSession;
  struct Impl;
  explicit LtStagedCall(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class LtSession {
 public:
  explicit LtSession(int device = 0, size_t workspace_bytes = size_t{32} << 20);
  ~LtSession();
  LtSession(const LtSession&) = delete;
  LtSession& operator=(const LtSession&) = delete;

  // Up to `count` algorithms, best first, as cublasLtMatmulAlgoGetHeuristic ranks them for this call
  // and this session's workspace limit. Empty with `why` set when the library offers none.
  std::vector<LtChoice> heuristic(const LtCall& call, int count, std::string* why = nullptr);

  // `choice` with its split-K count and custom option replaced (CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
  // _CUSTOM_OPTION), its configuration read back from the changed algorithm. The library may still
  // refuse to run it: that shows in run()'s outcome.
  LtChoice with_split(const LtChoice& choice, int split_k, int custom) const;

  // Runs the call with `choice` on the operands (row-major contract) and reads D back: stage(), one
  // launch(), read_d(). A CUDA error throws kernels::KernelError; a cuBLASLt refusal is an outcome,
  // not an exception.
  LtOutcome run(const LtCall& call, const LtChoice& choice, const LtOperands& ops);

  // Stages the call for launches of its own (see LtStagedCall). A refusal while building the
  // descriptors returns null with the reason in `why`.
  std::unique_ptr<LtStagedCall> stage(const LtCall& call, const LtChoice& choice, const LtOperands& ops,
                                      std::string* why = nullptr);

  size_t workspace_bytes() const;
  std::string library_version() const;  // "130100"

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmaemu::lt
