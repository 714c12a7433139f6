// What the CPU benchmark of the arithmetic times: one dot-product-add, a T-FDPA block
// d = c + sum of L products, per architecture profile and operand format, on a batch of realistic
// operands (log-normal magnitudes, 2% exact zeros: never all zeros).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/arith/op_params.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::bench {

// One profile and format: the tensor-core instruction whose block is timed (not lowered, A and B in
// `format`, C and D fp32), its block size L and the kernels' parameters for it.
struct DotCase {
  ref::Arch arch{};
  ref::FormatId format{};
  const ref::InstructionModel* model = nullptr;
  int L = 0;
  kernels::arith::OpParams params{};
};

// The case of (arch, format), or nullopt when the architecture has no such tensor-core block (sm70
// has no bf16; Hopper's mma.sync FP8 is lowered, so its FP8 block is wgmma's). mma.sync is preferred
// to wgmma; among several instructions the block is the same.
std::optional<DotCase> dot_case(ref::Arch arch, ref::FormatId format);

// `count` blocks of L elements: a[i*L + j], b[i*L + j] (raw bits widened to 32), c[i] (fp32 bits),
// and the same values as floats for the plain float loop.
struct DotBatch {
  int L = 0;
  size_t count = 0;
  std::vector<uint32_t> a, b, c;
  std::vector<float> af, bf, cf;
};

// Deterministic in (case, count, seed).
DotBatch make_batch(const DotCase& dc, size_t count, uint64_t seed);

// The three loops the benchmark times, each over the whole batch, writing one result per block to
// d[0 .. count): the oracle (ref::dot_k), the kernels' arithmetic on the CPU (arith::block_chain), and
// c + sum a*b in float. The first two must give the same bits (the benchmark checks it first).
void reference_blocks(const DotCase& dc, const DotBatch& batch, uint32_t* d);
void host_blocks(const DotCase& dc, const DotBatch& batch, uint32_t* d);
void float_blocks(const DotBatch& batch, float* d);

// The batch's values as one GEMM for the backends, which take GEMMs rather than lists of blocks: K the
// instruction's k, so that each output is k / L blocks; A [rows][k] from the batch's a, B [k][cols] from
// its b, C from its c; rows x cols x k / L = count (rows a power of two near the square root).
struct DotGemm {
  kernels::GemmShape shape;
  std::vector<uint32_t> A, B, C;
  size_t blocks = 0;  // blocks per run: outputs x k / L
};
DotGemm gemm_form(const DotCase& dc, const DotBatch& batch);

// The GEMM through a backend of the registry ("cpu", "reference"): D [rows][cols].
void backend_blocks(const char* backend, const DotCase& dc, const DotGemm& g, uint32_t* d);

}  // namespace mmaemu::bench
