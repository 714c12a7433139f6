// The switch of the mutant overlay (mutants/overlay/patch.hpp): the woven copies of the production
// files put each mutant behind MMAEMU_MUTANT(id). Only mutant programs compile them; production code
// never includes this file.
//
// On the host the switch is read at run time, so that one twin program serves a whole campaign (the
// mutant schemata of Mull and Dextool): a mutant is active when the environment variable MMAEMU_MUTANT
// holds its id. In GPU device code a run-time switch would distort the kernel (registers, divergence),
// so there MMAEMU_MUTANT(id) is false unless the translation unit is built as that mutant's own
// compile-time variant with -DMMAEMU_MUTANT_FIXED=id (cmake/MmaemuMutants.cmake).
#pragma once

namespace mmaemu::mutants {

// Reads MMAEMU_MUTANT; 0 when unset.
int read_active_from_environment();

// The active mutant's id, 0 when none: read once, at start-up, so that a switch on a hot path costs
// one compare with a global, not a call.
inline const int g_active = read_active_from_environment();
inline int active() { return g_active; }

}  // namespace mmaemu::mutants

#if defined(__CUDA_ARCH__)
#if defined(MMAEMU_MUTANT_FIXED)
#define MMAEMU_MUTANT(id) ((id) == MMAEMU_MUTANT_FIXED)
#else
#define MMAEMU_MUTANT(id) false
#endif
#else
#define MMAEMU_MUTANT(id) (::mmaemu::mutants::g_active == (id))
#endif
