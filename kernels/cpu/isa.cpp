#include "kernels/cpu/isa.hpp"

#include <cstdlib>
#include <stdexcept>

namespace mmaemu::kernels::cpu {
namespace {

#if defined(__x86_64__) || defined(_M_X64)
constexpr bool kX86 = true;
#else
constexpr bool kX86 = false;
#endif

bool cpu_has(Isa isa) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  switch (isa) {
    case Isa::portable: return true;
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    case Isa::avx512:
      return cpu_has(Isa::avx2) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512cd");
  }
  return false;
#else
  return isa == Isa::portable;
#endif
}

Isa checked(Isa isa, const std::string& origin) {
  if (!cpu_runs(isa))
    throw std::runtime_error(origin + ": this " + (kX86 ? "CPU" : "build") + " does not run the " + isa_name(isa) +
                             " kernels (it runs: " + [] {
                               std::string s;
                               for (Isa i : isas_built())
                                 if (cpu_runs(i)) s += (s.empty() ? "" : ", ") + std::string(isa_name(i));
                               return s;
                             }() + ")");
  return isa;
}

Isa widest() {
  Isa best = Isa::portable;
  for (Isa i : isas_built())
    if (cpu_runs(i)) best = i;
  return best;
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::portable: return "portable";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
  }
  return "?";
}

std::optional<Isa> parse_isa(const std::string& name) {
  for (Isa i : {Isa::portable, Isa::avx2, Isa::avx512})
    if (name == isa_name(i)) return i;
  return std::nullopt;
}

std::vector<Isa> isas_built() {
  if (kX86) return {Isa::portable, Isa::avx2, Isa::avx512};
  return {Isa::portable};
}

bool cpu_runs(Isa isa) {
  for (Isa i : isas_built())
    if (i == isa) return cpu_has(isa);
  return false;
}

int max_width(Isa isa) {
  switch (isa) {
    case Isa::portable: return 4;
    case Isa::avx2: return 8;
    case Isa::avx512: return 16;
  }
  return 4;
}

LaneKernel lane_kernel(Isa isa) {
  switch (isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case Isa::avx2: return &lanes_avx2;
    case Isa::avx512: return &lanes_avx512;
#endif
    default: return &lanes_portable;
  }
}

Isa selected_isa() {
  const char* env = std::getenv("MMAEMU_CPU_ISA");
  if (!env || !*env || std::string(env) == "auto") return widest();
  const auto isa = parse_isa(env);
  if (!isa)
    throw std::runtime_error(std::string("MMAEMU_CPU_ISA=") + env + ": not an instruction set (portable, avx2, avx512, auto)");
  return checked(*isa, std::string("MMAEMU_CPU_ISA=") + env);
}

}  // namespace mmaemu::kernels::cpu
