#include "bench/cpu/dot_cases.hpp"

#include <algorithm>
#include <cmath>

#include "generators/families.hpp"
#include "kernels/arith/emu_dot.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::bench {
namespace {

namespace arith = kernels::arith;

// Elements i*L .. i*L+L-1 of a batch, as the kernels' arithmetic loads a step.
struct BlockLoad {
  const uint32_t* a;
  const uint32_t* b;
  void operator()(int j, uint32_t& x, uint32_t& y) const {
    x = a[j];
    y = b[j];
  }
};

float to_float(ref::FormatId f, uint32_t bits) {
  const ref::Decoded d = ref::decode(f, bits);
  if (d.cls == ref::ValueClass::zero) return d.neg ? -0.0f : 0.0f;
  const float v = std::ldexp(static_cast<float>(d.sig), d.exp - ref::spec(f).man_bits);
  return d.neg ? -v : v;
}

}  // namespace

std::optional<DotCase> dot_case(ref::Arch arch, ref::FormatId format) {
  const ref::InstructionModel* best = nullptr;
  for (const auto& m : ref::instructions_of(arch)) {
    const auto& in = m.instr;
    if (m.lowering || in.scale || in.a != format || in.b != format || in.c != ref::FormatId::fp32 ||
        in.d != ref::FormatId::fp32)
      continue;
    if (!best || (best->instr.family == ref::InstrFamily::wgmma && in.family == ref::InstrFamily::mma_sync)) best = &m;
  }
  if (!best || kernels::arith_declines(*best)) return std::nullopt;
  return DotCase{arch, format, best, best->block.block_k, kernels::params_from_profile(*best)};
}

DotBatch make_batch(const DotCase& dc, size_t count, uint64_t seed) {
  DotBatch batch;
  batch.L = dc.L;
  batch.count = count;
  const size_t L = static_cast<size_t>(dc.L);
  batch.a.resize(count * L);
  batch.b.resize(count * L);
  batch.c.resize(count);
  // The generators fill an instruction tile; here a "tile" of `count` rows of L: A's rows are the
  // blocks' a, a second tile's A rows their b, and the first tile's C column their c.
  const ref::Instruction rows{"dot", ref::InstrFamily::mma_sync, static_cast<int>(count), 1, dc.L, dc.format,
                              dc.format, ref::FormatId::fp32, ref::FormatId::fp32, {}, std::nullopt};
  std::vector<uint32_t> column(L), unused_c(count);
  gen::generate_tile(gen::Family::realistic, rows, seed, batch.a.data(), column.data(), batch.c.data());
  gen::generate_tile(gen::Family::realistic, rows, seed + 1, batch.b.data(), column.data(), unused_c.data());
  batch.af.resize(batch.a.size());
  batch.bf.resize(batch.b.size());
  batch.cf.resize(count);
  for (size_t i = 0; i < batch.a.size(); ++i) batch.af[i] = to_float(dc.format, batch.a[i]);
  for (size_t i = 0; i < batch.b.size(); ++i) batch.bf[i] = to_float(dc.format, batch.b[i]);
  for (size_t i = 0; i < count; ++i) batch.cf[i] = to_float(ref::FormatId::fp32, batch.c[i]);
  return batch;
}

void reference_blocks(const DotCase& dc, const DotBatch& batch, uint32_t* d) {
  const size_t L = static_cast<size_t>(batch.L);
  for (size_t i = 0; i < batch.count; ++i)
    d[i] = ref::dot_k(*dc.model, batch.a.data() + i * L, batch.b.data() + i * L, batch.c[i], batch.L);
}

void host_blocks(const DotCase& dc, const DotBatch& batch, uint32_t* d) {
  const size_t L = static_cast<size_t>(batch.L);
  for (size_t i = 0; i < batch.count; ++i)
    d[i] = arith::block_chain(dc.params.instr, BlockLoad{batch.a.data() + i * L, batch.b.data() + i * L}, batch.L,
                              batch.c[i], dc.params.instr.c);
}

DotGemm gemm_form(const DotCase& dc, const DotBatch& batch) {
  const size_t k = static_cast<size_t>(dc.model->instr.k), L = static_cast<size_t>(batch.L);
  const size_t per_output = (k + L - 1) / L;
  const size_t outputs = std::max<size_t>(1, batch.count / per_output);
  size_t rows = 1;
  while (rows * 2 * rows * 2 <= outputs && outputs % (rows * 2) == 0) rows *= 2;
  const size_t cols = outputs / rows;
  DotGemm g;
  g.shape = {1, rows, cols, k};
  const auto take = [](const std::vector<uint32_t>& from, size_t n) {
    std::vector<uint32_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = from[i % from.size()];
    return v;
  };
  g.A = take(batch.a, rows * k);
  g.B = take(batch.b, k * cols);
  g.C = take(batch.c, outputs);
  g.blocks = outputs * per_output;
  return g;
}

void backend_blocks(const char* backend, const DotCase& dc, const DotGemm& g, uint32_t* d) {
  kernels::find_backend(backend)->run({dc.model, g.shape, g.A.data(), g.B.data(), g.C.data(), d});
}

void float_blocks(const DotBatch& batch, float* d) {
  const size_t L = static_cast<size_t>(batch.L);
  for (size_t i = 0; i < batch.count; ++i) {
    const float* a = batch.af.data() + i * L;
    const float* b = batch.bf.data() + i * L;
    float acc = batch.cf[i];
    for (size_t j = 0; j < L; ++j) acc += a[j] * b[j];
    d[i] = acc;
  }
}

}  // namespace mmaemu::bench
