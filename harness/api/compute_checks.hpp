// The operand checks of api::mma and api::gemm, shared by their host forms (compute.cpp) and their
// device forms (compute_device.cpp): an operand's shape and width are checked wherever its bits live.
#pragma once
#include <vector>

#include "harness/api/compute.hpp"
#include "kernels/backend.hpp"

namespace mmaemu::api {

struct CheckedRequest {
  const ref::InstructionModel* model;
  kernels::GemmShape shape;    // the GEMM it runs (mma: batch = T tiles)
  std::vector<size_t> d_shape;
};

// InputError (naming the operand) as the command line reports it; only shapes and widths are read,
// and the values for the fp4 / fp6 unused-bit check where they are given.
CheckedRequest check_mma(const ComputeRequest& request);
CheckedRequest check_gemm(const ComputeRequest& request);

}  // namespace mmaemu::api
