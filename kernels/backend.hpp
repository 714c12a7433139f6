// The emulation backends' common interface: a GEMM problem in raw bits, and a Backend that either runs
// it or says why it cannot (here, for this profile, instruction, shape or trace request).
//
// Layout (host arrays of raw bits widened to uint32, as NpyArray holds them, row-major):
//   A[batch][M][K], B[batch][K][N], C and D [batch][M][N], trace (optional) [batch][M][N][steps]
// with steps = ref::gemm_steps(model, K). Per element the result is exactly ref::gemm's: K padded with
// zeros to a multiple of the instruction's K, the instruction applied step by step along K, each step's
// D the next step's C; trace receives the accumulator after every step.
// A single instruction (`mmaemu mma`) is a GEMM with batch = T and M, N, K = the instruction's shape.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mmaemu/reference/decline.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {

struct GemmShape {
  size_t batch = 1, M = 0, N = 0, K = 0;
};

struct GemmProblem {
  const ref::InstructionModel* model = nullptr;
  GemmShape shape;
  const uint32_t* A = nullptr;
  const uint32_t* B = nullptr;
  const uint32_t* C = nullptr;
  uint32_t* D = nullptr;
  uint32_t* trace = nullptr;  // optional: [batch][M][N][steps]
  // Block-scaled instructions (model->instr.scale) only: SA[batch][M][S], SB[batch][S][N], S = ceil(K / block)
  // (ref::scale_count), one scale per block of consecutive k.
  const uint32_t* SA = nullptr;
  const uint32_t* SB = nullptr;
  // Every array above is CUDA device memory (the same words, laid out as on the host): only backends
  // whose declines_device_operands() is empty take such a problem.
  bool on_device = false;
};

struct RunInfo {
  std::string backend;
  double kernel_ms = 0;  // GPU: cudaEvent time of the kernel alone; host: wall time of the loop
};

// A backend failed while running (a CUDA error, with CUDA's message; an output left unwritten).
// Never a pass: callers report it as an error.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;         // "tiled", "simt", "tc", "cpu", "host", "reference"
  virtual std::string description() const = 0;  // one line for `mmaemu info`
  // Empty when it can run this problem here; otherwise why not, as a code (no_gpu, foreign_target,
  // ...; decline.hpp) with its detail for people.
  virtual Declined declines(const ref::InstructionModel& model, const GemmShape& shape, bool wants_trace) const = 0;
  // Empty when it takes a problem whose arrays are on the CUDA device (GemmProblem::on_device).
  virtual Declined declines_device_operands() const {
    return decline(DeclineCode::host_operands_only, name() + " reads its operands from host memory");
  }
  // Runs the problem; throws KernelError (with CUDA's message) on failure.
  virtual RunInfo run(const GemmProblem& problem) const = 0;
};

// Every backend, in ladder order (fastest first); the last rung is "reference", an adapter over ref::gemm.
const std::vector<const Backend*>& backends();

// nullptr when no backend has that name; an old name (kBackendAliases) finds the backend it stands for.
const Backend* find_backend(const std::string& name_or_alias);

struct LadderChoice {
  const Backend* chosen = nullptr;  // nullptr: none could run it (see declined)
  std::vector<std::pair<std::string, Decline>> declined;  // name, why; in ladder order
};

// "auto": the first backend of the ladder that does not decline, with the reasons of those before it.
// A name: that backend, or chosen = nullptr with its reason (or "unknown backend ...") in declined.
LadderChoice choose_backend(const std::string& name_or_auto, const ref::InstructionModel& model,
                            const GemmShape& shape, bool wants_trace);

// Number of entries of each array of a problem of this shape (steps: ref::gemm_steps(model, K)).
// The poison written over D (and the trace) before a run, on the GPU and in the tests: all ones, a
// negative NaN of every width (0xFF, 0xFFFF, 0xFFFFFFFF) that no backend returns, since NaN results
// are canonical (sign clear). An output left unwritten keeps it, and never equals an expected value.
inline constexpr uint32_t kPoison = 0xFFFFFFFFu;

inline size_t a_count(const GemmShape& s) { return s.batch * s.M * s.K; }
inline size_t b_count(const GemmShape& s) { return s.batch * s.K * s.N; }
inline size_t c_count(const GemmShape& s) { return s.batch * s.M * s.N; }
// Scale operands of a block-scaled instruction (0 for the others).
inline size_t scales_per_row(const ref::InstructionModel& m, const GemmShape& s) {
  return m.instr.scale ? ref::scale_count(m.instr, s.K) : 0;
}

}  // namespace mmaemu::kernels
