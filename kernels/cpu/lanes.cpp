// The lane kernel (lane_kernel.inl) for one instruction set: CMakeLists.txt compiles this file once per
// ISA with that ISA's flags, naming the entry point (MMAEMU_LANES_ENTRY: lanes_portable, lanes_avx2,
// lanes_avx512) and the widest vector it holds (MMAEMU_LANES_MAX_WIDTH, in 32-bit lanes).
#include "kernels/cpu/lane_kernel.inl"

#if !defined(MMAEMU_LANES_ENTRY) || !defined(MMAEMU_LANES_MAX_WIDTH)
#error "compile lanes.cpp through kernels/CMakeLists.txt, which names the ISA"
#endif

namespace mmaemu::kernels::cpu {

void MMAEMU_LANES_ENTRY(const LaneTile& tile) {
  switch (tile.width) {
    case 4: return run_width<4>(tile);
    case 8: return run_width<8>(tile);
#if MMAEMU_LANES_MAX_WIDTH >= 16
    case 16: return run_width<16>(tile);
#endif
    default: __builtin_trap();  // the backend asks only for the widths isa.cpp gives this ISA
  }
}

}  // namespace mmaemu::kernels::cpu
