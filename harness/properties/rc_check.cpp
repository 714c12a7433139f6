#include "harness/properties/rc_check.hpp"

#include <fcntl.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <unistd.h>

#include <optional>

#include "generators/rng.hpp"

namespace mmaemu::props {
namespace {

// The last refuted case of the running group. RapidCheck runs one case at a time on this thread.
thread_local std::optional<Counterexample> last_refuted;
// Why the last case was discarded, for a run that gives up.
thread_local std::string last_discard;

// Counts the shrinking steps RapidCheck accepts, and says nothing (RapidCheck's own reporter would
// print to stderr; the suite's report carries the outcome instead).
class ShrinkCounter : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription& c) override {
    discarded += c.result.type == rc::detail::CaseResult::Type::Discard ? 1 : 0;
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool accepted) override { shrinks += accepted ? 1 : 0; }
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
  int shrinks = 0;
  int discarded = 0;  // test cases only, not shrinking attempts
};

uint64_t name_hash(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: stable across platforms and runs
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

// RapidCheck reads its configuration (RC_PARAMS) once, announcing it on stderr. The properties pass
// their own parameters, so the announcement would only be noise in every run's log.
void load_configuration_quietly() {
  static const bool loaded = [] {
    const int saved = ::dup(STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
    rc::detail::configuration();
    if (saved >= 0) {
      ::dup2(saved, STDERR_FILENO);
      ::close(saved);
    }
    if (null >= 0) ::close(null);
    return true;
  }();
  (void)loaded;
}

}  // namespace

uint64_t group_seed(uint64_t suite_seed, const std::string& group) { return gen::mix_seed(suite_seed, name_hash(group)); }

GroupOutcome not_applicable(const std::string& group, const std::string& why) {
  GroupOutcome g;
  g.group = group;
  g.expect = Expect::not_applicable;
  g.why = why;
  return g;
}

GroupOutcome run_group(const std::string& group, Expect expect, const std::string& why, const Budget& budget,
                       const std::function<void()>& body) {
  load_configuration_quietly();
  GroupOutcome out;
  out.group = group;
  out.expect = expect;
  out.why = why;
  out.seed = group_seed(budget.seed, group);

  rc::detail::TestParams params;
  params.seed = out.seed;
  params.maxSuccess = budget.cases;
  params.maxSize = 100;
  params.maxDiscardRatio = 10;
  rc::detail::TestMetadata metadata;
  metadata.id = group;
  metadata.description = group;
  ShrinkCounter listener;
  last_refuted.reset();
  const auto result = rc::detail::checkTestable([&] { body(); }, metadata, params, listener);
  out.discarded = listener.discarded;

  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(success)) {
    out.cases = success.numSuccess;
  } else if (result.match(failure)) {
    out.cases = failure.numSuccess;
    if (last_refuted) {
      out.counterexample = std::move(*last_refuted);
    } else {  // the body threw something else than a refutation: an error in the check, not a counterexample
      out.error = "the check failed without a counterexample: " + failure.description;
    }
    if (out.counterexample) {
      out.counterexample->shrinks = listener.shrinks;
      out.counterexample->cases_before = failure.numSuccess;
    }
  } else if (result.match(gave_up)) {
    out.cases = gave_up.numSuccess;
    out.error = "gave up after " + std::to_string(gave_up.numSuccess) + " cases: more than 10 cases drawn outside the "
                "domain per case that held (the last: " + last_discard + ")";
  } else if (result.match(error)) {
    out.error = "RapidCheck: " + error.description;
  }
  last_refuted.reset();
  return out;
}

void refute(Counterexample c) {
  const std::string what = c.what;
  last_refuted = std::move(c);
  RC_FAIL(what);
  __builtin_unreachable();  // RC_FAIL throws
}

void discard(const std::string& why) {
  last_discard = why;
  RC_DISCARD(why);
  __builtin_unreachable();  // RC_DISCARD throws
}

}  // namespace mmaemu::props
