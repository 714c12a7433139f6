// The declines the tiled CUDA-core backends (v4, v5) share, decided in one place: a usable device, an
// instruction the kernels' arithmetic covers, one accumulator format (their accumulator tiles hold C and
// D alike) and a shape their 32-bit indices and grid of row tiles can hold. Each backend adds its own
// (v4: K stages; v5: blocks that fit a double).
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "kernels/backend.hpp"

namespace mmaemu::kernels {

// `backend` prefixes the reason ("v4: ..."); `tile_rows` is the M of the backend's largest tile.
std::optional<std::string> tiled_kernel_declines(const std::string& backend, const ref::InstructionModel& model,
                                                 const GemmShape& shape, size_t tile_rows);

}  // namespace mmaemu::kernels
