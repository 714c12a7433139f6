#include "harness/tiers/cublaslt_replay.hpp"

#include <cstdint>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"
#include "kernels/library/library_gemm.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_recording.hpp"
#include "harness/cublaslt/lt_resolver.hpp"
#include "harness/tiers/decline_rules.hpp"

namespace mmaemu {
namespace {

// The replay's one "backend": the library model, which declines a run on an algorithm it has no rules for.
constexpr const char* kModel = "model";

SuiteResult run_cublaslt_replay(const SuiteSpec& spec) {
  const std::vector<std::string> runs_here = {kModel};
  tiers::DeclineRules declines = tiers::DeclineRules::read(spec, &runs_here);
  declines.required = {kModel};  // always: a replay that declined every run would compare nothing
  const lt::Recording rec = lt::read_recording(spec.path("recording"));
  // algo: auto: each call's D as `mmaemu gemm --library ... --algo auto` computes it, with the
  // configuration the resolver picks, against what the library (or its client) returned.
  std::optional<lt::Resolver> resolver;
  if (spec.has("algo")) {
    const auto& v = spec.values.at("algo");
    if (v.text != "auto") throw InputError(v.where, "algo is 'auto' (or absent: the configuration each run recorded)");
    if (!spec.has("resolver")) throw InputError(v.where, "algo: auto needs 'resolver' (the profile's resolver file)");
    resolver = lt::Resolver::load(spec.path("resolver"));
  }
  const bool first_row_only = spec.has("first_row_only") && spec.values.at("first_row_only").flag;
  const uint64_t max_macs = spec.has("max_macs") ? spec.values.at("max_macs").number : UINT64_MAX;
  kernels::LibraryEngine engine = kernels::LibraryEngine::reference;
  if (spec.has("engine")) {
    const auto& v = spec.values.at("engine");
    const auto e = kernels::parse_library_engine(v.text);
    if (!e) throw InputError(v.where, "unknown engine '" + v.text + "' (reference, host, cuda)");
    engine = *e;
  }
  SuiteResult result;
  if (engine == kernels::LibraryEngine::cuda) {
    if (const auto why = kernels::library_engine_declines(engine)) {
      result.verdict = Verdict::skip;
      result.reason = why->detail;
      return result;
    }
  }
  BitComparator cmp(result);
  tiers::Coverage coverage;
  for (const lt::RecordedCall& c : rec.calls) {
    if (c.operands_sha256.empty()) continue;  // a heuristic-only entry (the resolver's table)
    // Refusals cost nothing to check: every call's, whatever max_macs leaves out.
    lt::compare_refusal(cmp, c.call, c.heuristic_rejected.has_value(), c.heuristic_rejected.value_or(""));
    if (c.call.M * c.call.N * c.call.K > max_macs) continue;
    if (c.runs.empty()) continue;
    lt::LtOperands ops = lt::operands_of(rec, c);
    lt::LtCall call = c.call;
    if (first_row_only) {  // row 0 of A and C, so D's row 0: every call and configuration, fewer outputs
      call.M = 1;
      ops.a.resize(call.K);
      ops.c.resize(call.N);
    }
    for (const lt::RecordedRun& recorded : c.runs) {
      if (recorded.rejected) continue;  // refused at execution after the heuristic offered it: nothing to compare
      lt::RecordedRun run = recorded;
      if (resolver) {
        if (run.rank != 0) continue;  // the heuristic's first choice is what a call runs
        const lt::Resolution r = resolver->resolve(c.call, spec.values.at("resolver").where);
        if (!r.config) {  // the resolver says the library refuses a call it ran: every output differs
          count_decline(coverage[kModel].declines,
                        decline(DeclineCode::library_refuses, "the resolver says the library refuses it (" + r.refused + ")"));
          continue;
        }
        run.config = *r.config;
      }
      if (const auto why = ref::model_declines(lt::library_call(c.call), lt::library_algo(run.config))) {
        count_decline(coverage[kModel].declines, *why);
        continue;
      }
      ++coverage[kModel].ran;
      auto library_d = lt::read_d(rec.dir / run.d_file, c.call);
      library_d.resize(call.M * call.N);
      lt::compare_with_model(cmp, call, run.config, ops, library_d, lt::model_d(call, run.config, ops, engine));
    }
  }
  result.coverage = coverage;
  set_verdict_from_counts(result);
  for (const std::string& why : declines.failures(coverage)) {
    result.failures.push_back(why);
    result.reason += (result.reason.empty() ? "" : "; ") + why;
    if (result.verdict == Verdict::pass) result.verdict = Verdict::fail;
  }
  lt::require_library_outputs(result);
  return result;
}

}  // namespace

SuiteKind cublaslt_replay_kind() {
  return {
      .name = "cublaslt-replay",
      .description = "replays cuBLASLt matmuls recorded on a real GPU through the library model, bit for bit",
      .keys = {required_key("recording", ValueType::directory)
                   .described_as("cuBLASLt recording")
                   .containing("recording.json"),
               // Only D's first row of every run: all calls and configurations in seconds (for T4).
               optional_key("first_row_only", ValueType::boolean),
               // Only the calls of at most this many multiply-adds (M * N * K).
               optional_key("max_macs", ValueType::integer),
               // Who computes the model: reference (default), or the kernels' arithmetic on host / cuda.
               optional_key("engine", ValueType::string),
               // Runs on algorithms the model has no rules for, expected: [{backend: model, reason, why}].
               tiers::allowed_declines_key(),
               // auto: compute each call with the configuration the resolver picks (as `gemm --algo
               // auto`), not the one recorded; the D recorded is the reference either way.
               optional_key("algo", ValueType::string), optional_key("resolver", ValueType::file)},
      .run = run_cublaslt_replay,
  };
}

}  // namespace mmaemu
