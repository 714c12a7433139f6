#include "harness/core/program_variant.hpp"

// Defined only in mutant programs (mutants/switch.cpp); weak here, so the shipped program sees null.
extern "C" const char* mmaemu_program_variant() __attribute__((weak));

namespace mmaemu {

std::string program_variant() { return is_shipped_program() ? "shipped" : mmaemu_program_variant(); }

bool is_shipped_program() { return mmaemu_program_variant == nullptr; }

}  // namespace mmaemu
