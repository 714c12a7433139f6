// The library GEMM model (kernels/library/library_gemm.hpp's engine "cpu") on the cpu backend's lanes
// and threads; see library_lanes.cpp.
#pragma once
#include <cstdint>

#include "kernels/arith/library_dot.hpp"
#include "mmaemu/reference/library_gemm.hpp"

namespace mmaemu::kernels::cpu {

// Whether the call's slices run on lanes (else every output runs arith::library_element, on every thread).
bool library_on_lanes(const arith::LibraryParams& p);

// D[M][N] from A[M][K], B[K][N], C[M][N] (row-major raw bits), as arith::library_element computes it.
void library_gemm_lanes(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                        const uint32_t* B, const uint32_t* C, uint32_t* D);

}  // namespace mmaemu::kernels::cpu
