#include "switch.hpp"

#include <cstdlib>

namespace mmaemu::mutants {

int active() {
  static const int id = [] {
    const char* v = std::getenv("MMAEMU_MUTANT");
    return v ? std::atoi(v) : 0;
  }();
  return id;
}

}  // namespace mmaemu::mutants
