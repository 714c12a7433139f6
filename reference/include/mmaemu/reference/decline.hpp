// Why a backend, an engine or the library model does not compute a call: a code from one list, plus
// text for people. Code decides (tier files allow declines by code, reports carry the code as a
// field, tests compare codes); the detail text is never matched, so rewording it changes no verdict.
//
// The list lives in decline.cpp (kDeclineCodes): each code's name, as tier files and reports spell it,
// and what it means. Everything else reads it from there (`mmaemu info`, the tier schema's check of
// `allowed_declines`).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mmaemu {

enum class DeclineCode {
  unknown_backend,       // no backend of that name in this build
  not_built,             // this build left the backend or engine out (built without CUDA)
  no_gpu,                // no usable CUDA device on this machine
  cpu_isa_unavailable,   // this CPU (or build) does not run that vector instruction set
  no_tensor_core_code,   // tc: this build has no tensor-core code for this GPU's architecture
  foreign_target,        // tc: the target (or its block model) is not this GPU's own
  no_native_kernel,      // tc: no tensor-core kernel for this instruction, N or promotion interval
  fp64_fma_chain,        // fp64 mma is an IEEE fma chain, not a block; only some backends run it
  format_not_implemented,  // an operand, accumulator, block-result or scale format without code here
  block_too_wide,        // the block's sums need more bits than this backend's arithmetic holds
  incomplete_model,      // the instruction's model is empty, or lowered to an instruction without one
  lowered_instruction,   // this backend runs no lowered instruction (another runs the lowering)
  block_scaled,          // this backend runs no block-scaled instruction
  mixed_accumulator,     // C in another format than D; this backend's accumulator holds one format
  k_stage,               // the instruction's K does not fit this kernel's K stage
  grid_limit,            // a dimension exceeds the kernel's grid or index range
  no_trace,              // this kernel cannot give the accumulator after every step
  host_operands_only,    // this backend reads its operands from host memory
  other_path,            // an internal fast path does not take it; the general path of the same engine runs it
  library_refuses,       // cuBLASLt offers no algorithm for this call (the model says why)
  library_algorithm_without_rules,  // the library model has no rules for this cuBLASLt algorithm
  library_configuration_without_rules,  // its rules miss recorded bits for this configuration of the algorithm
};

struct DeclineCodeInfo {
  DeclineCode code;
  std::string_view name;     // "foreign-target": tier files and reports
  std::string_view meaning;  // one line for people
};

// Every code, in enum order: the one list.
const std::vector<DeclineCodeInfo>& decline_codes();
std::string_view decline_code_name(DeclineCode code);
std::optional<DeclineCode> parse_decline_code(std::string_view name);

struct Decline {
  DeclineCode code;
  std::string detail;              // for people: "tc: target sm80 differs from this GPU (sm90); ..."
  std::optional<int> algorithm = {};  // library_algorithm_without_rules: the cuBLASLt algorithm's ID

  std::string_view code_name() const { return decline_code_name(code); }
};

// Empty: it runs. The return type of every `declines` question.
using Declined = std::optional<Decline>;

inline Decline decline(DeclineCode code, std::string detail) { return Decline{code, std::move(detail)}; }

// The same decline with its detail prefixed ("tiled: " + detail): who declined, for people.
inline Decline prefixed(std::string_view prefix, Decline d) {
  d.detail = std::string(prefix) + d.detail;
  return d;
}

}  // namespace mmaemu
