// Backend "cpu": the kernels' arithmetic on vector lanes and on every core. A GEMM is cut into tiles of
// rows x columns, independent work items for the threads; each tile's chains run over K (lane_chain.hpp:
// its A rows and B columns decoded once per chunk, then the lane kernel of the selected ISA, one output
// per lane). Outputs the
// lanes flag (NaN or Inf met, all-zero blocks) and instructions the lanes do not take (lane_plan.hpp:
// lowered, block-scaled, fp64, wide sums) run the scalar arithmetic of the host backend, in parallel too.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/lane_chain.hpp"
#include "kernels/cpu/lane_plan.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/host/scalar_outputs.hpp"
#include "kernels/params_from_profile.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::kernels {
namespace {

class LaneGemm {
 public:
  LaneGemm(const GemmProblem& pr, const arith::OpParams& p, cpu::Isa isa)
      : pr_(pr), p_(p), plan_(cpu::lane_plan(p)), kernel_(cpu::lane_kernel(isa)) {
    const GemmShape& s = pr.shape;
    grid_ = {s.M, s.N, cpu::lane_width(isa, s.N)};
    steps_ = ref::gemm_steps(*pr.model, s.K);
  }
  size_t items() const { return pr_.shape.batch * grid_.count(); }

  void run_item(size_t item) const {
    thread_local cpu::TileState sc;
    const GemmShape& s = pr_.shape;
    const size_t t = item / grid_.count();
    const auto [m0, n0, rows, cols, lanes] = grid_.tile(item % grid_.count());
    sc.reset(rows, lanes);
    for (size_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < cols; ++j) sc.acc[r * lanes + j] = pr_.C[(t * s.M + m0 + r) * s.N + n0 + j];
    cpu::TileSource src;
    src.a = pr_.A + (t * s.M + m0) * s.K;
    src.a_stride = s.K;
    src.b = pr_.B + t * s.K * s.N + n0;
    src.b_stride = s.N;
    src.k_end = s.K;
    src.rows = rows;
    src.cols = cols;
    src.lanes = lanes;
    cpu::TileTrace trace;
    if (pr_.trace) trace = {pr_.trace + ((t * s.M + m0) * s.N + n0) * steps_, s.N * steps_, steps_, 0};
    cpu::chain_tile(p_.instr, plan_, kernel_, grid_.width, src, 0, steps_ * static_cast<size_t>(plan_.k), sc, trace);
    for (size_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < cols; ++j) {
        if (sc.needs_scalar(r, j, lanes))
          scalar_block_output(pr_, p_, t, m0 + r, n0 + j);
        else
          pr_.D[(t * s.M + m0 + r) * s.N + n0 + j] = sc.acc[r * lanes + j];
      }
  }

 private:
  const GemmProblem& pr_;
  const arith::OpParams& p_;
  cpu::LanePlan plan_;
  cpu::LaneKernel kernel_;
  cpu::TileGrid grid_{};
  size_t steps_ = 0;
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
  Declined declines(const ref::InstructionModel& model, const GemmShape&, bool) const override {
    if (pinned_ && !cpu::cpu_runs(*pinned_))
      return decline(DeclineCode::cpu_isa_unavailable,
                     std::string("this machine does not run the ") + cpu::isa_name(*pinned_) + " kernels");
    if (!pinned_) try {
        (void)cpu::selected_isa();
      } catch (const std::exception& e) {
        return decline(DeclineCode::cpu_isa_unavailable, e.what());
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
      const GemmShape& s = pr.shape;
      cpu::parallel_for(gemm.items(), [&](size_t item) { gemm.run_item(item); },
                        static_cast<double>(s.batch) * static_cast<double>(s.M) * static_cast<double>(s.N) *
                            static_cast<double>(s.K));
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
