// One GEMM problem of the kernel tiers: its outputs from the reference or from a backend, and their
// bit-for-bit comparison (D and the per-step accumulator trace) into a BitComparator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/comparator.hpp"
#include "harness/tiers/kernel_conformance_operands.hpp"
#include "kernels/backend.hpp"

namespace mmaemu::tiers {

struct GemmOutputs {
  std::vector<uint32_t> D;      // [batch][M][N]
  std::vector<uint32_t> trace;  // [batch][M][N][steps]; empty when not asked for
};

// ref::gemm on every batch entry, rows spread over the CPU's cores (the reference is the slow part
// of the suites on a GPU machine).
GemmOutputs reference_outputs(const GemmInputs& in, bool trace);

// Runs `backend`. D and the trace start out poisoned (kernels' all-ones pattern, which no result
// takes), so an output a backend leaves unwritten shows up as a mismatch even when the backend does
// not notice. The CPU backends ("host", "reference") get rows spread over the cores like the
// reference. Throws what the backend throws (KernelError).
GemmOutputs backend_outputs(const kernels::Backend& backend, const GemmInputs& in, bool trace);

// Compares got with expected, D and trace, into group `group`. Kept mismatches name the output
// ("D (b,m,n)" or "trace (b,m,n) step s") and its inputs (row of A, column of B, C). Returns how many differ.
size_t compare_outputs(BitComparator& cmp, const std::string& group, const GemmInputs& in,
                       const GemmOutputs& expected, const GemmOutputs& got);

}  // namespace mmaemu::tiers
