// The cpu backend's worker threads: how many (set_threads, else MMAEMU_THREADS, else every hardware
// thread), and a parallel loop over independent work items that each thread takes in turn.
#pragma once
#include <cstddef>
#include <functional>

namespace mmaemu::kernels::cpu {

// Threads a run uses. Throws std::runtime_error naming MMAEMU_THREADS when it is not a positive number.
int threads();
// Tests and benchmarks: use n threads (0: back to MMAEMU_THREADS or every hardware thread).
void set_threads(int n);

// Calls work(i) for every i < items, on up to threads() threads (the caller's among them); the first
// exception thrown by a call is rethrown here once every thread has stopped. `macs`: the multiply-adds
// of the whole loop, when known: below about a million (tens of microseconds on lanes), starting
// threads costs more than it saves, and the caller's thread does it all.
void parallel_for(size_t items, const std::function<void(size_t)>& work, double macs = 0);

}  // namespace mmaemu::kernels::cpu
