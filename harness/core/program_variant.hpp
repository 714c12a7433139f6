// Which build of a program is running: the shipped one, which holds no mutant, or one of T4's mutant
// programs (mutants/), which link a definition of mmaemu_program_variant() saying which mutant they
// carry. Every run report records it, so that no result of a mutant can pass for the product's.
#pragma once
#include <string>

namespace mmaemu {

// "shipped", or the mutant program's own words ("mutant twin, no mutant active", "mutant 12 ...").
std::string program_variant();

bool is_shipped_program();

}  // namespace mmaemu
