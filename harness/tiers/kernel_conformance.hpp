// Suite kind "kernel-conformance" (tier T3): every backend x profile x instruction x operation x input
// family against the reference (ref::gemm), bit for bit, D and the accumulator after every step.
//   - name: t3-host
//     kind: kernel-conformance
//     labels: [T3, cpu]
//     backends: [host]          # backend names, or [all] (every backend of this build but the reference)
//     profiles: [all]           # sm names, or [all]
//     instructions: [all]       # all | mma | wgmma | tcgen05 | PTX names (wgmma, tcgen05 at N = 8)
//     formats: [fp16, e4m3]     # optional: instructions whose A or B has one of these formats
//     families: [all]           # input families (generators/)
//     tiles: 4                  # single instructions: tiles per family (0: none)
//     gemms:                    # whole GEMMs, MxNxK; `families` narrows a costly shape
//       - shapes: [1x1x1, 17x9x33]
//       - shapes: [128x96x200]
//         families: [realistic]
//     trace: true               # compare the accumulator after every step too (default true)
//     seed: 1
//     min_outputs: 1000000      # per backend x profile x format: bulk GEMMs of bulk_shape until reached
//     bulk_shape: 128x128x72
//     device_independence: host # every other backend's D and trace must equal this one's, bit for bit
//     require: [simt]             # these must run at least one problem (fail otherwise)
//     device: gpu               # skip, with the reason, where no CUDA device can be used
// Groups: "<backend>/<profile>/<instruction>/<operation>/<family>", operation "instruction" (tiles),
// "gemm MxNxK" or "bulk MxNxK xB"; device independence as "<backend>=<other>/...". A backend that
// declines a problem is counted per reason and listed in the suite's reason, never dropped silently.
#pragma once
#include <vector>

#include "harness/core/result.hpp"
#include "kernels/backend.hpp"
#include "harness/tiers/suite_kind.hpp"

namespace mmaemu {

SuiteKind kernel_conformance_kind();

// Runs a kernel-conformance suite with the backends of `available` (the registry's, or test fakes).
SuiteResult run_kernel_conformance(const SuiteSpec& spec, const std::vector<const kernels::Backend*>& available);

}  // namespace mmaemu
