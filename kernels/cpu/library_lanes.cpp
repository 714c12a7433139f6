// The library GEMM model (arith/library_dot.hpp: cuBLASLt's slices, FP8 promotion, reduction and
// epilogue) with its instruction chains on the cpu backend's lanes: per tile of outputs, each
// consecutive K slice's chains run on lanes (lane_chain.hpp), segment by segment where the plan says
// (FP8 promotion every promotion_k products, or a tf32 tail first), the segments' sums promoted in fp32
// per output; then each output's reduction and epilogue (arith::library_finish). Interleaved slices
// (FMA chains), SIMT kernels and instructions the lanes do not take run arith::library_element per
// output, as do outputs the lanes flag.
#include <algorithm>
#include <vector>

#include "kernels/arith/library_dot.hpp"
#include "kernels/cpu/lane_chain.hpp"
#include "kernels/cpu/library_lanes.hpp"
#include "kernels/cpu/threads.hpp"

namespace mmaemu::kernels::cpu {
namespace {

// A tile's outputs' partial of one slice, from the lanes.
struct TilePartials {
  const std::vector<float>& partial;  // [slices][rows * lanes]
  size_t index, stride;
  float operator()(size_t s) const { return partial[s * stride + index]; }
};

void scalar_rows(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A, const uint32_t* B,
                 const uint32_t* C, uint32_t* D) {
  parallel_for(call.M, [&](size_t m) {
    for (size_t n = 0; n < call.N; ++n)
      D[m * call.N + n] = arith::library_element(p, A + m * call.K, B + n, call.N, call.K, C[m * call.N + n]);
  });
}

}  // namespace

bool library_on_lanes(const arith::LibraryParams& p) {
  return !p.simt_fp32 && !p.interleave_block && !lane_plan_declines(p.instr);
}

void library_gemm_lanes(const arith::LibraryParams& p, const ref::LibraryCall& call, const uint32_t* A,
                        const uint32_t* B, const uint32_t* C, uint32_t* D) {
  if (!library_on_lanes(p) || !call.M || !call.N) return scalar_rows(p, call, A, B, C, D);
  const LanePlan plan = lane_plan(p.instr);
  const Isa isa = selected_isa();
  const LaneKernel kernel = lane_kernel(isa);
  const TileGrid grid{call.M, call.N, lane_width(isa, call.N)};
  const size_t k = static_cast<size_t>(plan.k), K = call.K;
  parallel_for(grid.count(), [&](size_t item) {
    thread_local TileState st;
    thread_local std::vector<float> partial, promoted;
    thread_local std::vector<uint8_t> irregular;
    const auto [m0, n0, rows, cols, lanes] = grid.tile(item);
    const size_t outs = rows * lanes;
    partial.assign(p.slices * outs, 0.0f);
    irregular.assign(outs, 0);
    TileSource src;
    src.a = A + m0 * K;
    src.a_stride = K;
    src.b = B + n0;
    src.b_stride = call.N;
    src.rows = rows;
    src.cols = cols;
    src.lanes = lanes;
    src.round_tf32 = p.tf32_rounded;
    for (size_t s = 0; s < p.slices; ++s) {
      const size_t k0 = s * p.chunk;
      if (k0 >= K) continue;  // an empty slice's partial is +0
      const size_t n = std::min<size_t>(K - k0, p.chunk);
      promoted.assign(outs, 0.0f);
      st.reset(rows, lanes);
      for (size_t done = 0; done < n;) {  // the segments of arith::library_slice
        const size_t len = arith::library_segment(p, n, done);
        if (p.promotion_k) std::fill(st.acc.begin(), st.acc.end(), 0u);
        src.k_end = k0 + done + len;
        chain_tile(p.instr.instr, plan, kernel, grid.width, src, k0 + done, (len + k - 1) / k * k, st);
        if (p.promotion_k)
          for (size_t i = 0; i < outs; ++i) promoted[i] = arith::add_rn(promoted[i], arith::f32_of(st.acc[i]));
        done += len;
      }
      for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < lanes; ++j) {
          const size_t i = r * lanes + j;
          partial[s * outs + i] = p.promotion_k ? promoted[i] : arith::f32_of(st.acc[i]);
          irregular[i] |= st.needs_scalar(r, j, lanes);
        }
    }
    for (size_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < cols; ++j) {
        const size_t m = m0 + r, nn = n0 + j, o = m * call.N + nn;
        D[o] = irregular[r * lanes + j]
                   ? arith::library_element(p, A + m * K, B + nn, call.N, K, C[o])
                   : arith::library_finish(p, TilePartials{partial, r * lanes + j, outs}, C[o]);
      }
  }, static_cast<double>(call.M) * static_cast<double>(call.N) * static_cast<double>(K));
}

}  // namespace mmaemu::kernels::cpu
