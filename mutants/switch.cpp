#include "mutants/switch.hpp"

#include <cstdlib>
#include <string>

namespace mmaemu::mutants {

int read_active_from_environment() {
  const char* v = std::getenv("MMAEMU_MUTANT");
  return v ? std::atoi(v) : 0;
}

}  // namespace mmaemu::mutants

// Only mutant programs link this file: it answers harness/core/program_variant.hpp's question, so
// that every report a mutant program writes says which mutant it carried.
extern "C" const char* mmaemu_program_variant() {
#if defined(MMAEMU_MUTANT_FIXED)
  static const std::string v = "mutant " + std::to_string(MMAEMU_MUTANT_FIXED) + " (compile-time variant)";
#else
  static const std::string v = mmaemu::mutants::g_active != 0
                                   ? "mutant " + std::to_string(mmaemu::mutants::g_active) + " (MMAEMU_MUTANT)"
                                   : "mutant twin, no mutant active";
#endif
  return v.c_str();
}
