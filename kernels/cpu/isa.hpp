// The instruction sets the cpu backend's lane kernels are built for, which of them this CPU runs, and
// the one it uses: the widest the CPU runs, or the one MMAEMU_CPU_ISA names (portable, avx2, avx512;
// auto = the widest). Chosen at run time, so one binary serves every x86-64 machine.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/cpu/lane_tile.hpp"

namespace mmaemu::kernels::cpu {

enum class Isa { portable, avx2, avx512 };

const char* isa_name(Isa isa);
std::optional<Isa> parse_isa(const std::string& name);  // nullopt: not an ISA's name

std::vector<Isa> isas_built();   // whose kernels this build holds (x86-64: all three; else portable)
bool cpu_runs(Isa isa);          // built, and this CPU has its instructions
int max_width(Isa isa);          // 32-bit lanes of its widest vector: 4, 8, 16
using LaneKernel = void (*)(const LaneTile&);
LaneKernel lane_kernel(Isa isa);

// The ISA the backend "cpu" uses: MMAEMU_CPU_ISA, else the widest this CPU runs ("cpu:ISA" backends
// hold one regardless). Throws std::runtime_error, naming the setting, for an unknown name or an ISA this
// build or CPU lacks.
Isa selected_isa();

}  // namespace mmaemu::kernels::cpu
