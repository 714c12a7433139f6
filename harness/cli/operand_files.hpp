// Operands of `mmaemu mma` and `mmaemu gemm` read from .npy files, named by their file in errors.
#pragma once
#include <optional>
#include <string>

#include "harness/api/compute.hpp"

namespace mmaemu::cli {

api::Operand operand_file(const std::string& path);

// A scale operand (--scale-a, --scale-b): absent when not given; read only when the instruction takes
// scales, so that one given to an instruction that takes none is the option's error, not the file's.
std::optional<api::Operand> scale_operand_file(const ref::InstructionModel& model, const std::string& path);

}  // namespace mmaemu::cli
