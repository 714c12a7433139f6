// What the tiled CUDA-core backends (tiled, tiled-fp64) share around their kernels, decided in one place: the
// declines (a usable device, an instruction the kernels' arithmetic covers, one accumulator format,
// since their accumulator tiles hold C and D alike, and a shape their 32-bit indices and grid of row
// tiles can hold), device operands (NativeGemmBuffers narrows and widens them on the device), and
// run()'s preparation. Each backend adds its own declines (tiled: K stages; tiled-fp64: blocks that fit a double)
// and picks its kernel by the operands' and the accumulator's widths.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "kernels/arith/op_params.hpp"
#include "kernels/backend.hpp"

namespace mmaemu::kernels {

// `backend` prefixes the reason ("tiled: ..."); `tile_rows` is the M of the backend's largest tile.
Declined tiled_kernel_declines(const std::string& backend, const ref::InstructionModel& model, const GemmShape& shape,
                               size_t tile_rows);

class TiledCudaBackend : public Backend {
 public:
  Declined declines_device_operands() const final { return std::nullopt; }
  // The instruction's parameters and steps, nothing run for an empty D, then run_kernel.
  RunInfo run(const GemmProblem& p) const final;

 protected:
  // The kernel's milliseconds on the problem; op_bits and acc_bits are the storage widths of A (and B)
  // and of D.
  virtual double run_kernel(const GemmProblem& p, const arith::OpParams& params, size_t steps, int op_bits,
                            int acc_bits) const = 0;
};

}  // namespace mmaemu::kernels
