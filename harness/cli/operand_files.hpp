// Operands of `mmaemu mma` and `mmaemu gemm` read from .npy files, named by their file in errors.
#pragma once
#include <optional>
#include <string>

#include "harness/api/compute.hpp"
#include "harness/core/scale_operands.hpp"

namespace mmaemu::cli {

// An operand read from an .npy file, named by the file in errors.
api::Operand operand_file(const std::string& path);

// The files of `mmaemu mma` and `mmaemu gemm`.
struct InstructionFiles {
  std::string arch, instr, a, b, c, backend = "reference";
  ScaleFiles scales;  // block-scaled instructions
};

// The request those files make: the options checked before any file is read (find_instruction);
// a scale file read only when the instruction takes scales, so that one given to an instruction that
// takes none is the option's error, not the file's.
api::ComputeRequest read_compute_request(const InstructionFiles& files);

}  // namespace mmaemu::cli
