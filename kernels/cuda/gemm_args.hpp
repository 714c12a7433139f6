// What a GEMM kernel of the tiled and tc backends is handed: the problem's arrays in their native widths
// on the device (NativeGemmBuffers) and its shape. One struct, so that both backends read a batched
// GEMM the same way.
#pragma once
#include <cstdint>

namespace mmaemu::kernels {

template <class Operand, class Acc>
struct GemmArgs {
  const Operand* A;  // [batch][M][K]
  const Operand* B;  // [batch][K][N]
  const Acc* C;      // [batch][M][N]
  Acc* D;            // [batch][M][N]
  Acc* trace;        // [batch][M][N][steps] or nullptr
  int M, N, K, steps;
  int batch;
  // Block-scaled instructions (tiled only): SA [batch][M][S], SB [batch][S][N] ue8m0 / ue4m3 patterns.
  const uint8_t* SA = nullptr;
  const uint8_t* SB = nullptr;
  int S = 0;
};

}  // namespace mmaemu::kernels
