// The backends the registry knows, one function each, defined in the backend's own source file.
// backends() (backend.hpp) lists those this build holds in the order of the one list of names
// (backend_names.hpp: fastest first). The GPU ones exist only in CUDA builds, and tiled / tiled-fp64 / tc only
// once their sources are present (see CMakeLists.txt).
#pragma once
#include "kernels/backend.hpp"

namespace mmaemu::kernels {

const Backend& cpu_backend();        // cpu/cpu_backend.cpp
// "cpu:portable", "cpu:avx2", "cpu:avx512": the cpu backend held to one instruction set (find_backend
// knows them; the ladder holds only "cpu"). nullptr for another name.
const Backend* pinned_cpu_backend(const std::string& isa_name);
const Backend& host_backend();       // host/host_backend.cpp
const Backend& reference_backend();  // host/reference_backend.cpp
#if defined(MMAEMU_KERNELS_HAVE_CUDA)
const Backend& simt_backend();         // cuda/simt.cu
#endif
#if defined(MMAEMU_KERNELS_HAVE_TILED_FP64)
const Backend& tiled_fp64_backend();         // cuda/tiled_fp64.cu
#endif
#if defined(MMAEMU_KERNELS_HAVE_TILED)
const Backend& tiled_backend();         // cuda/tiled.cu
#endif
#if defined(MMAEMU_KERNELS_HAVE_TC_NATIVE)
const Backend& tc_backend();         // cuda/tc_native.cu
#endif

}  // namespace mmaemu::kernels
