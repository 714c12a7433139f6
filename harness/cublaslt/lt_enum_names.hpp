// Names of cuBLASLt's tile and stage enumerators ("128x128", "64x4"), read from the cublasLt.h this
// build compiles against (generated at configure time), so that recordings carry readable configs.
#pragma once
#include <string>

namespace mmaemu::lt {

std::string tile_enum_name(int id);    // "" when the header has no such enumerator
std::string stages_enum_name(int id);

}  // namespace mmaemu::lt
