#include "harness/tiers/kernel_conformance_operands.hpp"

#include <algorithm>

#include "generators/rng.hpp"
#include "generators/scales.hpp"

namespace mmaemu::tiers {
namespace {

// FNV-1a: a stable hash of a stream name (std::hash differs between standard libraries).
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

size_t parse_dim(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return 0;
  return std::stoul(s);
}

// One instruction-shaped tile (a, b, c) of a family, in words (two per fp64 element).
struct Tile {
  std::vector<uint32_t> a, b, c;
  Tile(const ref::Instruction& in, gen::Family family, uint64_t seed)
      : a(static_cast<size_t>(in.m) * in.k * ref::words_per_element(in.a)),
        b(static_cast<size_t>(in.k) * in.n * ref::words_per_element(in.b)),
        c(static_cast<size_t>(in.m) * in.n * ref::words_per_element(in.c)) {
    gen::generate_tile(family, in, seed, a.data(), b.data(), c.data());
  }
};

// Element `from` of src to element `to` of dst, both of w words per element.
void copy_element(uint32_t* dst, size_t to, const std::vector<uint32_t>& src, size_t from, size_t w) {
  for (size_t i = 0; i < w; ++i) dst[to * w + i] = src[from * w + i];
}

// Fills batch entry `t` of `g`.
void fill_gemm(GemmInputs& g, size_t t, gen::Family family, uint64_t seed) {
  const ref::Instruction& in = g.model->instr;
  const size_t im = in.m, in_n = in.n, ik = in.k;
  const size_t M = g.shape.M, N = g.shape.N, K = g.shape.K;
  const size_t rows = (M + im - 1) / im, cols = (N + in_n - 1) / in_n, ksteps = (K + ik - 1) / ik;
  const size_t wa = ref::words_per_element(in.a), wb = ref::words_per_element(in.b), wc = ref::words_per_element(in.c);
  uint32_t* A = g.A.data() + t * M * K * wa;
  uint32_t* B = g.B.data() + t * K * N * wb;
  uint32_t* C = g.C.data() + t * M * N * wc;
  const auto tile_seed = [&](size_t x, size_t y, uint64_t what) {
    return gen::mix_seed(seed, (x * 0x10000 + y) * 4 + what);
  };
  // Tile (x, s): A of block row x and B of block column x at step s.
  for (size_t x = 0; x < std::max(rows, cols); ++x)
    for (size_t s = 0; s < ksteps; ++s) {
      const Tile tile(in, family, tile_seed(x, s, 0));
      for (size_t r = 0; x < rows && r < im && x * im + r < M; ++r)
        for (size_t k = 0; k < ik && s * ik + k < K; ++k) copy_element(A, (x * im + r) * K + s * ik + k, tile.a, r * ik + k, wa);
      for (size_t k = 0; x < cols && k < ik && s * ik + k < K; ++k)
        for (size_t n = 0; n < in_n && x * in_n + n < N; ++n) copy_element(B, (s * ik + k) * N + x * in_n + n, tile.b, k * in_n + n, wb);
      if (s == 0 && x < rows && x < cols)  // the diagonal's C belongs with its first step's products
        for (size_t r = 0; r < im && x * im + r < M; ++r)
          for (size_t n = 0; n < in_n && x * in_n + n < N; ++n) copy_element(C, (x * im + r) * N + x * in_n + n, tile.c, r * in_n + n, wc);
    }
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) {
      if (i == j) continue;
      const Tile tile(in, family, tile_seed(i, j, 1));
      for (size_t r = 0; r < im && i * im + r < M; ++r)
        for (size_t n = 0; n < in_n && j * in_n + n < N; ++n) copy_element(C, (i * im + r) * N + j * in_n + n, tile.c, r * in_n + n, wc);
    }
}

GemmInputs allocate(const ref::InstructionModel& model, const kernels::GemmShape& shape) {
  GemmInputs g;
  g.model = &model;
  g.shape = shape;
  const ref::Instruction& in = model.instr;
  g.A.assign(kernels::a_count(shape) * ref::words_per_element(in.a), 0);
  g.B.assign(kernels::b_count(shape) * ref::words_per_element(in.b), 0);
  g.C.assign(kernels::c_count(shape) * ref::words_per_element(in.c), 0);
  const size_t S = g.scales_per_row();
  g.SA.assign(shape.batch * shape.M * S, 0);
  g.SB.assign(shape.batch * S * shape.N, 0);
  return g;
}

// Batch entry t's scales, from their own stream of the entry's seed.
void fill_scales(GemmInputs& g, size_t t, gen::Family family, uint64_t seed) {
  const size_t S = g.scales_per_row(), M = g.shape.M, N = g.shape.N;
  if (S) gen::generate_scales(family, g.model->instr, seed, M, S, N, &g.SA[t * M * S], &g.SB[t * S * N]);
}

}  // namespace

std::optional<kernels::GemmShape> parse_gemm_shape(const std::string& text, std::string* why) {
  const size_t x1 = text.find('x'), x2 = x1 == std::string::npos ? x1 : text.find('x', x1 + 1);
  if (x2 != std::string::npos && text.find('x', x2 + 1) == std::string::npos) {
    const size_t M = parse_dim(text.substr(0, x1)), N = parse_dim(text.substr(x1 + 1, x2 - x1 - 1)),
                 K = parse_dim(text.substr(x2 + 1));
    if (M && N && K) return kernels::GemmShape{1, M, N, K};
  }
  if (why) *why = "'" + text + "' is not a GEMM shape MxNxK (three whole numbers >= 1, e.g. 33x17x70)";
  return std::nullopt;
}

std::string shape_name(const kernels::GemmShape& s) {
  return std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
}

uint64_t problem_seed(uint64_t suite_seed, const std::string& stream) { return gen::mix_seed(suite_seed, fnv1a(stream)); }

GemmInputs instruction_tiles(const ref::InstructionModel& model, gen::Family family, size_t tiles, uint64_t seed) {
  const ref::Instruction& in = model.instr;
  GemmInputs g = allocate(model, {tiles, size_t(in.m), size_t(in.n), size_t(in.k)});
  const size_t a = size_t(in.m) * in.k * ref::words_per_element(in.a), b = size_t(in.k) * in.n * ref::words_per_element(in.b),
               c = size_t(in.m) * in.n * ref::words_per_element(in.c);
  for (size_t t = 0; t < tiles; ++t) {
    gen::generate_tile(family, in, gen::mix_seed(seed, t), &g.A[t * a], &g.B[t * b], &g.C[t * c]);
    fill_scales(g, t, family, gen::mix_seed(seed, t));
  }
  return g;
}

GemmInputs gemm_operands(const ref::InstructionModel& model, gen::Family family, const kernels::GemmShape& shape,
                         uint64_t seed) {
  GemmInputs g = allocate(model, shape);
  for (size_t t = 0; t < shape.batch; ++t) {
    fill_gemm(g, t, family, gen::mix_seed(seed, t));
    fill_scales(g, t, family, gen::mix_seed(seed, t));
  }
  return g;
}

}  // namespace mmaemu::tiers
