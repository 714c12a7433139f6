#include "switch.hpp"

#include <cstdlib>

namespace mmaemu::mutants {

int read_active_from_environment() {
  const char* v = std::getenv("MMAEMU_MUTANT");
  return v ? std::atoi(v) : 0;
}

}  // namespace mmaemu::mutants
