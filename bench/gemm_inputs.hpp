// What one benchmark case runs: the emulated instruction for a format, the GEMM shape, and its
// operands (realistic values as raw bits: normal-ish magnitudes, a few exact zeros, never all zeros).
#pragma once
#include <cstdint>
#include <list>
#include <string_view>
#include <vector>

#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::bench {

// "4096x4096x4096" (M x N x K, each >= 1); throws InputError naming the option otherwise.
kernels::GemmShape parse_shape(std::string_view text);
std::string shape_name(const kernels::GemmShape& s);  // "4096x4096x4096"

// The instruction of `arch` a benchmark of `format` emulates: A and B in `format`, C and D in fp32,
// of the given family; among several shapes the largest K (the step a GEMM's inner loop chains),
// then the smallest N (wgmma's n8, the one every backend runs; N does not change an output's
// arithmetic), or the wgmma of that K at N = `n` when n > 0 (tc's pipelined GEMM runs m64n64/128/256).
// Throws InputError when the architecture has none (or wgmma takes no such N).
const ref::InstructionModel& bench_model(ref::Arch arch, ref::InstrFamily family, ref::FormatId format, int n = 0);

struct HostOperands {
  std::vector<uint32_t> a, b, c;  // raw bits widened to 32: A[M][K], B[K][N], C[M][N]
};

// The generators' "realistic" family over a whole GEMM; deterministic in (formats, shape, seed).
HostOperands realistic_operands(ref::FormatId a, ref::FormatId b, ref::FormatId c, const kernels::GemmShape& s,
                                uint64_t seed);

// Realistic operands generated once per (A, B, C formats, shape, seed) and shared: a GEMM case's
// native rows (plain and fast accumulation) and every backend read the same values. Generation is
// sequential (one random stream, so that a seed names the same operands everywhere) and costs about
// 3 s at 4096^3 and 12 s at 8192^3 on one core: regenerated per row, it was most of a large case's
// wall time. Keeps the two newest sets (e5m2's native B is e4m3, so a case may need two); a set
// returned stays valid until two other sets have been asked for since.
class OperandCache {
 public:
  const HostOperands& get(ref::FormatId a, ref::FormatId b, ref::FormatId c, const kernels::GemmShape& s,
                          uint64_t seed);

 private:
  struct Entry {
    ref::FormatId a, b, c;
    kernels::GemmShape shape;
    uint64_t seed;
    HostOperands ops;
  };
  static constexpr size_t kEntries = 2;
  std::list<Entry> entries_;  // oldest first; a list, so that evicting one moves no other
};

// Raw bits narrowed to the format's storage width (1, 2 or 4 bytes each, little-endian), as a
// library that takes the format natively reads them.
std::vector<uint8_t> pack_storage(const std::vector<uint32_t>& bits, ref::FormatId f);

size_t storage_bytes(ref::FormatId f);  // bytes per element in memory (tf32: 4)

}  // namespace mmaemu::bench
