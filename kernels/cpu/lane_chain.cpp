#include "kernels/cpu/lane_chain.hpp"

#include <algorithm>

namespace mmaemu::kernels::cpu {
namespace {

// Elements of K per chunk: a lane group's decoded B chunk (kChunk x width x 12 bytes) stays in L1 while
// the tile's rows stream past it.
constexpr size_t kChunk = 128;

}  // namespace

void TileState::reset(size_t rows, size_t lanes) {
  acc.assign(rows * lanes, 0);
  irregular.assign(rows * lanes, 0);
  row_special.assign(rows, 0);
  col_special.assign(lanes, 0);
}

int lane_width(Isa isa, size_t N) {
  int w = max_width(isa);
  while (w > 4 && static_cast<size_t>(w / 2) >= N) w /= 2;
  return w;
}

void chain_tile(const arith::InstrParams& ip, const LanePlan& plan, LaneKernel kernel, int width, const TileSource& src,
                size_t k0, size_t count, TileState& st, const TileTrace& trace) {
  const size_t k = static_cast<size_t>(plan.k), chunk = std::max<size_t>(k, kChunk / k * k);
  for (size_t c0 = k0; c0 < k0 + count; c0 += chunk) {
    const size_t kn = std::min(chunk, k0 + count - c0);
    decode_a(ip, src, c0, kn, st.a);
    decode_b(ip, src, c0, kn, plan.pre_shift, st.b);
    for (size_t r = 0; r < src.rows; ++r) st.row_special[r] |= st.a.special[r];
    for (size_t j = 0; j < src.lanes; ++j) st.col_special[j] |= st.b.special[j];
    LaneTile tile;
    tile.plan = &plan;
    tile.width = width;
    tile.rows = static_cast<int>(src.rows);
    tile.lanes = static_cast<int>(src.lanes);
    tile.k_count = static_cast<int>(kn);
    tile.a_exp = st.a.exp.data();
    tile.a_sig = st.a.sig.data();
    tile.a_neg = st.a.neg.data();
    tile.a_stride = kn;
    tile.b_exp = st.b.exp.data();
    tile.b_sig = st.b.sig.data();
    tile.b_neg = st.b.neg.data();
    tile.acc = st.acc.data();
    tile.irregular = st.irregular.data();
    if (trace.base) {
      tile.trace = trace.base;
      tile.trace_row = trace.row;
      tile.trace_col = trace.col;
      tile.first_step = trace.first_step + (c0 - k0) / k;
    }
    tile.cols = static_cast<int>(src.cols);
    kernel(tile);
  }
}

}  // namespace mmaemu::kernels::cpu
