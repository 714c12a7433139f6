#include "mmaemu/reference/decline.hpp"

namespace mmaemu {
namespace {

using C = DeclineCode;

// The one list of decline codes. A name, once released, is never reused for another meaning: tier
// files and committed reports name it.
const std::vector<DeclineCodeInfo> kDeclineCodes = {
    {C::unknown_backend, "unknown-backend", "no backend of that name in this build"},
    {C::not_built, "not-built", "this build left the backend or engine out (built without CUDA)"},
    {C::no_gpu, "no-gpu", "no usable CUDA device on this machine"},
    {C::cpu_isa_unavailable, "cpu-isa-unavailable", "this CPU (or this build) does not run that vector instruction set"},
    {C::no_tensor_core_code, "no-tensor-core-code", "this build has no tensor-core code for this GPU's architecture"},
    {C::foreign_target, "foreign-target",
     "the target architecture, or its block model, is not this GPU's own: the tensor cores give only their own bits"},
    {C::no_native_kernel, "no-native-kernel", "no tensor-core kernel for this instruction, N or promotion interval"},
    {C::fp64_fma_chain, "fp64-fma-chain", "fp64 mma is an IEEE fma chain, not a block; this backend has no code for it"},
    {C::format_not_implemented, "format-not-implemented",
     "an operand, accumulator, block-result or scale format this backend has no code for"},
    {C::block_too_wide, "block-too-wide", "the block's sums need more bits than this backend's arithmetic holds"},
    {C::incomplete_model, "incomplete-model",
     "the instruction's model is empty, or lowered to an instruction that has no model"},
    {C::lowered_instruction, "lowered-instruction", "this backend runs no lowered instruction; another runs its lowering"},
    {C::block_scaled, "block-scaled", "this backend runs no block-scaled instruction"},
    {C::mixed_accumulator, "mixed-accumulator", "C in another format than D; this backend's accumulator holds one format"},
    {C::k_stage, "k-stage", "the instruction's K does not fit this kernel's K stage"},
    {C::grid_limit, "grid-limit", "a dimension exceeds the kernel's grid or index range"},
    {C::no_trace, "no-trace", "this kernel cannot give the accumulator after every step"},
    {C::host_operands_only, "host-operands-only", "this backend reads its operands from host memory"},
    {C::other_path, "other-path", "an internal fast path does not take it; the same engine's general path runs it"},
    {C::library_refuses, "library-refuses", "cuBLASLt offers no algorithm for this call"},
    {C::library_algorithm_without_rules, "library-algorithm-without-rules",
     "the library model has no rules for this cuBLASLt algorithm"},
    {C::library_configuration_without_rules, "library-configuration-without-rules",
     "the library model's rules for this algorithm miss recorded bits in this configuration"},
};

}  // namespace

const std::vector<DeclineCodeInfo>& decline_codes() { return kDeclineCodes; }

std::string_view decline_code_name(DeclineCode code) {
  for (const DeclineCodeInfo& i : kDeclineCodes)
    if (i.code == code) return i.name;
  return "?";
}

std::optional<DeclineCode> parse_decline_code(std::string_view name) {
  for (const DeclineCodeInfo& i : kDeclineCodes)
    if (i.name == name) return i.code;
  return std::nullopt;
}

}  // namespace mmaemu
