#include "harness/tiers/cublaslt_parity.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "harness/core/comparator.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_plan.hpp"
#include "harness/cublaslt/lt_recording.hpp"
#if defined(MMAEMU_TIERS_HAVE_CUDA)
#include "harness/record/gpu_run.hpp"
#include "harness/cublaslt/lt_live.hpp"
#endif

namespace mmaemu {
namespace {

#if defined(MMAEMU_TIERS_HAVE_CUDA)
// done / total on a terminal only.
void progress(size_t done, size_t total, std::chrono::steady_clock::time_point start) {
  if (!isatty(STDERR_FILENO)) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rate = s > 0 ? done / s : 0;
  std::fprintf(stderr, "\r  cuBLASLt parity: %zu / %zu calls  %.1f/s  %.0f s left   %s", done, total, rate,
               rate > 0 ? (total - done) / rate : 0.0, done == total ? "\n" : "");
}

void check_resolver(lt::LtSession& session, const lt::Recording& rec, BitComparator& cmp) {
  GroupCount& g = cmp.group("resolver");
  for (const lt::RecordedCall& c : rec.calls) {
    if (c.heuristic.empty()) continue;
    const auto live = session.heuristic(c.call, 1);
    const bool same = !live.empty() && live.front().config == c.heuristic.front();
    cmp.compare_one(g, "resolver", 1u, same ? 1u : 0u, 1, [&](size_t) {
      return CaseDescription{c.call.name(), "recorded: " + c.heuristic.front().describe() +
                                                "; live: " + (live.empty() ? "none" : live.front().config.describe())};
    });
  }
}
#endif

SuiteResult run_cublaslt_parity(const SuiteSpec& spec) {
  const lt::LtPlan plan = lt::load_plan(spec.path("plan"));
  std::optional<lt::Recording> resolver;
  if (spec.has("resolver")) resolver = lt::read_recording(spec.path("resolver"));
  SuiteResult result;
#if !defined(MMAEMU_TIERS_HAVE_CUDA)
  result.verdict = Verdict::skip;
  result.reason = "built without CUDA: cuBLASLt cannot run";
  return result;
#else
  std::string why_not;
  const auto dev = record::open_device(0, &why_not);
  if (!dev) {
    result.verdict = Verdict::skip;
    result.reason = why_not;
    return result;
  }
  const std::string& want = spec.values.at("gpu").text;
  if (dev->name.find(want) == std::string::npos) {
    result.verdict = Verdict::skip;
    result.reason = "the GPU is " + dev->name + "; the model is that of " + want;
    return result;
  }
  lt::LtSession session(0);
  BitComparator cmp(result);
  GroupCount& executions = cmp.group("executions");
  size_t calls = 0, runs = 0, refused = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    const lt::PlannedCall& p = plan.calls[i];
    std::string why;
    const auto choices = session.heuristic(p.call, p.run ? plan.heuristic_results : 1, &why);
    ++calls;
    if (choices.empty()) ++refused;
    if (!p.run || choices.empty()) {
      lt::compare_refusal(cmp, p.call, choices.empty(), why);
      progress(i + 1, plan.calls.size(), start);
      continue;
    }
    const lt::LtOperands ops = lt::generate_operands(p.call, p.family, p.seed);
    bool ran = false;
    std::string refusal;
    for (const auto& choice : choices) {
      const lt::LtOutcome out = session.run(p.call, choice, ops);
      ++runs;
      // Group "executions": one per cublasLtMatmul; an algorithm the heuristic offered must run.
      cmp.compare_one(executions, "executions", 1u, out.rejected ? 0u : 1u, 1, [&](size_t) {
        return CaseDescription{p.call.name(), choice.config.describe() + ": " + out.rejected.value_or("")};
      });
      if (out.rejected) {
        refusal = *out.rejected;
        continue;
      }
      ran = true;
      lt::compare_with_model(cmp, p.call, choice.config, ops, out.d,
                             lt::model_d(p.call, choice.config, ops));
    }
    lt::compare_refusal(cmp, p.call, !ran, refusal);
    progress(i + 1, plan.calls.size(), start);
  }
  if (resolver) check_resolver(session, *resolver, cmp);
  set_verdict_from_counts(result);
  lt::require_library_outputs(result);
  const std::string counts = std::to_string(calls) + " live calls (" + std::to_string(runs) + " runs, " +
                             std::to_string(refused) + " refused) on " + dev->name + ", cuBLASLt " +
                             session.library_version();
  result.reason = result.reason.empty() ? counts : counts + "; " + result.reason;
  return result;
#endif
}

}  // namespace

SuiteKind cublaslt_parity_kind() {
  return {
      .name = "cublaslt-parity",
      .description = "live cuBLASLt matmuls on the GPU against the library model, bit for bit",
      .keys = {required_key("gpu", ValueType::string),
               required_key("plan", ValueType::file).described_as("cuBLASLt call plan"),
               optional_key("resolver", ValueType::directory)
                   .described_as("cuBLASLt recording")
                   .containing("recording.json")},
      .run = run_cublaslt_parity,
  };
}

}  // namespace mmaemu
