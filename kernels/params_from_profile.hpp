// OpParams from an architecture profile. The profile (ref::InstructionModel) is data: this reads its
// fields and never calls the reference's arithmetic.
#pragma once
#include <optional>
#include <string>

#include "kernels/arith/op_params.hpp"
#include "mmaemu/reference/decline.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::kernels {

// Why the per-element arithmetic cannot run this instruction exactly (a format it lacks, a block too
// wide for its 64-bit sums); empty when it can.
Declined arith_declines(const ref::InstructionModel& model);

// The parameters of `model`; throws std::invalid_argument with arith_declines()'s reason.
arith::OpParams params_from_profile(const ref::InstructionModel& model);

arith::Fmt kernel_format(ref::FormatId f);  // throws std::invalid_argument for formats it lacks

}  // namespace mmaemu::kernels
