// Backend "cpu": the kernels' arithmetic on vector lanes and on every core. A GEMM is cut into tiles of
// rows x columns, independent work items for the threads; each tile walks K in chunks: its A rows and B
// columns decoded once per chunk (decoded_operands.hpp), then the lane kernel of the selected ISA
// (isa.hpp, lane_kernel.inl) continues every output's block chain, one output per lane. Outputs the
// lanes flag (NaN or Inf met, all-zero blocks) and instructions the lanes do not take (lane_plan.hpp:
// lowered, block-scaled, fp64, wide sums) run the scalar arithmetic of the host backend, in parallel too.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "kernels/cpu/decoded_operands.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/lane_plan.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/host/scalar_outputs.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

// Tile sizes: a tile's B chunk (kChunk x width x 12 bytes per lane group) stays in L1 while its rows
// stream past it; kRows x kCols outputs keep decoding to 1/kRows + 1/kCols of the multiply-adds.
constexpr size_t kRows = 32, kCols = 128, kChunk = 128;

size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

// The lane width for N columns: the ISA's widest, halved while half of it still covers N.
int lane_width(cpu::Isa isa, size_t N) {
  int w = cpu::max_width(isa);
  while (w > 4 && static_cast<size_t>(w / 2) >= N) w /= 2;
  return w;
}

struct TileScratch {
  cpu::DecodedPlanes a, b;
  std::vector<uint32_t> acc;
  std::vector<uint8_t> irregular, row_special, col_special;
};

class LaneGemm {
 public:
  LaneGemm(const GemmProblem& pr, const arith::OpParams& p, cpu::Isa isa)
      : pr_(pr), p_(p), plan_(cpu::lane_plan(p)), isa_(isa), kernel_(cpu::lane_kernel(isa_)) {
    const GemmShape& s = pr.shape;
    width_ = lane_width(isa_, s.N);
    steps_ = ref::gemm_steps(*pr.model, s.K);
    k_ = static_cast<size_t>(plan_.k);
    chunk_ = std::max<size_t>(k_, kChunk / k_ * k_);
    row_tiles_ = (s.M + kRows - 1) / kRows;
    col_tiles_ = (s.N + kCols - 1) / kCols;
  }
  size_t items() const { return pr_.shape.batch * row_tiles_ * col_tiles_; }

  void run_item(size_t item) const {
    thread_local TileScratch scratch;
    const GemmShape& s = pr_.shape;
    const size_t t = item / (row_tiles_ * col_tiles_), rt = item / col_tiles_ % row_tiles_, ct = item % col_tiles_;
    const size_t m0 = rt * kRows, n0 = ct * kCols;
    const size_t rows = std::min(kRows, s.M - m0), cols = std::min(kCols, s.N - n0);
    const size_t lanes = round_up(cols, static_cast<size_t>(width_));
    TileScratch& sc = scratch;
    sc.acc.assign(rows * lanes, 0);
    sc.irregular.assign(rows * lanes, 0);
    sc.row_special.assign(rows, 0);
    sc.col_special.assign(lanes, 0);
    for (size_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < cols; ++j) sc.acc[r * lanes + j] = pr_.C[(t * s.M + m0 + r) * s.N + n0 + j];
    const uint32_t* A = pr_.A + (t * s.M + m0) * s.K;
    const uint32_t* B = pr_.B + t * s.K * s.N + n0;
    const size_t k_end = steps_ * k_;
    for (size_t k0 = 0; k0 < k_end; k0 += chunk_) {
      const size_t kn = std::min(chunk_, k_end - k0);
      cpu::decode_a(p_.instr, A, s.K, rows, k0, kn, sc.a);
      cpu::decode_b(p_.instr, B, s.K, s.N, cols, lanes, k0, kn, plan_.pre_shift, sc.b);
      for (size_t r = 0; r < rows; ++r) sc.row_special[r] |= sc.a.special[r];
      for (size_t j = 0; j < lanes; ++j) sc.col_special[j] |= sc.b.special[j];
      cpu::LaneTile tile;
      tile.plan = &plan_;
      tile.width = width_;
      tile.rows = static_cast<int>(rows);
      tile.lanes = static_cast<int>(lanes);
      tile.k_count = static_cast<int>(kn);
      tile.a_exp = sc.a.exp.data();
      tile.a_sig = sc.a.sig.data();
      tile.a_neg = sc.a.neg.data();
      tile.a_stride = kn;
      tile.b_exp = sc.b.exp.data();
      tile.b_sig = sc.b.sig.data();
      tile.b_neg = sc.b.neg.data();
      tile.acc = sc.acc.data();
      tile.irregular = sc.irregular.data();
      if (pr_.trace) {
        tile.trace = pr_.trace + ((t * s.M + m0) * s.N + n0) * steps_;
        tile.trace_row = s.N * steps_;
        tile.trace_col = steps_;
        tile.first_step = k0 / k_;
      }
      tile.cols = static_cast<int>(cols);
      kernel_(tile);
    }
    for (size_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < cols; ++j) {
        if (sc.irregular[r * lanes + j] || sc.row_special[r] || sc.col_special[j])
          scalar_block_output(pr_, p_, t, m0 + r, n0 + j);
        else
          pr_.D[(t * s.M + m0 + r) * s.N + n0 + j] = sc.acc[r * lanes + j];
      }
  }

 private:
  const GemmProblem& pr_;
  const arith::OpParams& p_;
  cpu::LanePlan plan_;
  cpu::Isa isa_;
  cpu::LaneKernel kernel_;
  int width_ = 4;
  size_t steps_ = 0, k_ = 0, chunk_ = 0, row_tiles_ = 0, col_tiles_ = 0;
};

// Instructions the lanes do not take: the scalar arithmetic, rows of outputs per work item.
void run_scalar(const GemmProblem& pr, const arith::OpParams& p) {
  const GemmShape& s = pr.shape;
  const bool chain = pr.model->fma_chain;
  cpu::parallel_for(s.batch * s.M, [&](size_t row) {
    const size_t t = row / s.M, m = row % s.M;
    for (size_t n = 0; n < s.N; ++n) {
      if (chain)
        scalar_fma_chain_output(pr, t, m, n);
      else
        scalar_block_output(pr, p, t, m, n);
    }
  });
}

// "cpu": the instruction set chosen at run time (isa.hpp); "cpu:ISA": that one, declined where this CPU
// lacks it (so that tests can run every variant the machine has).
class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(std::optional<cpu::Isa> pinned) : pinned_(pinned) {}
  std::string name() const override { return pinned_ ? std::string("cpu:") + cpu::isa_name(*pinned_) : "cpu"; }
  std::string description() const override {
    const cpu::Isa isa = pinned_ ? *pinned_ : cpu::selected_isa();
    return std::string("the kernels' arithmetic on ") + cpu::isa_name(isa) + " vector lanes (" +
           std::to_string(cpu::max_width(isa)) + " x 32 bits) and " + std::to_string(cpu::threads()) +
           " threads; scalar where lanes do not apply";
  }
  std::optional<std::string> declines(const ref::InstructionModel& model, const GemmShape&, bool) const override {
    if (pinned_ && !cpu::cpu_runs(*pinned_))
      return std::string("this machine does not run the ") + cpu::isa_name(*pinned_) + " kernels";
    if (!pinned_) try {
        (void)cpu::selected_isa();
      } catch (const std::exception& e) {
        return std::string(e.what());
      }
    if (model.fma_chain) return std::nullopt;
    return arith_declines(model);
  }
  RunInfo run(const GemmProblem& pr) const override {
    const auto start = std::chrono::steady_clock::now();
    const bool chain = pr.model->fma_chain;
    const arith::OpParams p = chain ? arith::OpParams{} : params_from_profile(*pr.model);
    if (!chain && !cpu::lane_plan_declines(p) && pr.shape.M && pr.shape.N) {
      const LaneGemm gemm(pr, p, pinned_ ? *pinned_ : cpu::selected_isa());
      cpu::parallel_for(gemm.items(), [&](size_t item) { gemm.run_item(item); });
    } else {
      run_scalar(pr, p);
    }
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    return {name(), ms.count()};
  }

 private:
  std::optional<cpu::Isa> pinned_;
};

}  // namespace

const Backend& cpu_backend() {
  static const CpuBackend b(std::nullopt);
  return b;
}

const Backend* pinned_cpu_backend(const std::string& isa_name) {
  static const CpuBackend portable(cpu::Isa::portable), avx2(cpu::Isa::avx2), avx512(cpu::Isa::avx512);
  const auto isa = cpu::parse_isa(isa_name);
  if (!isa) return nullptr;
  switch (*isa) {
    case cpu::Isa::portable: return &portable;
    case cpu::Isa::avx2: return &avx2;
    case cpu::Isa::avx512: return &avx512;
  }
  return nullptr;
}

}  // namespace mmaemu::kernels
