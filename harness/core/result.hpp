// What a tier run found: the data model shared by runners, comparators and report writers.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mmaemu/reference/decline.hpp"

namespace mmaemu {

enum class Verdict { pass, fail, skip, error };
const char* verdict_name(Verdict v);  // "pass", "fail", "skip", "error"

// One output whose bits differ, written the TestFloat way: inputs, expected, got (hex).
struct Mismatch {
  std::string group;     // e.g. "H200/fp16/fp32-out" or "mma.m16n8k16.f32.f16.f16.f32/subnormal"
  std::string case_id;   // e.g. "tile 17 m 3 n 5" or "line 412"
  std::string inputs;    // "a=[3c00 ...] b=[...] c=3f800000"
  std::string expected;  // hex bits of the recording (or of the reference, in T3)
  std::string got;       // hex bits of the implementation under test
  bool known = false;    // in a group the tier file lists as a known mismatch
};

// One kind of decline a backend made in a suite: its code (a name from the decline codes' list,
// mmaemu/reference/decline.hpp; empty only in reports written before codes existed), how many
// problems, and for a library algorithm without rules, which algorithm.
struct DeclineTally {
  std::string code;
  size_t problems = 0;
  std::optional<int> algorithm = {};
};

// What one backend did in a suite that runs several (kernel conformance, native parity, properties):
// the problems it ran and those it declined, keyed by the decline's detail text (for people; verdicts
// read only the code). Reports give these as fields, so that no reader parses the suite's prose `reason`.
using DeclineTallies = std::map<std::string, DeclineTally>;
struct BackendCoverage {
  size_t ran = 0;
  DeclineTallies declines;
};

// Counts `problems` declines of `d` into `into` (under its detail text, with its code).
void count_decline(DeclineTallies& into, const Decline& d, size_t problems = 1);

// Counts per group (GPU x format x output type, instruction x input family, ...).
struct GroupCount {
  size_t compared = 0;
  size_t mismatched = 0;
  // Set when the tier file lists the group as a known mismatch: why it cannot match yet. Its
  // mismatches are counted and reported, but do not fail the suite.
  std::string known_reason = {};
  bool known() const { return !known_reason.empty(); }
};

struct SuiteResult {
  std::string tier;   // "T2"
  std::string suite;  // "h200-fixtures"
  std::vector<std::string> labels;
  Verdict verdict = Verdict::pass;
  std::string reason;  // why skipped / why error / summary of failure
  size_t compared = 0;
  size_t mismatched = 0;
  std::map<std::string, GroupCount> groups;
  std::vector<Mismatch> first_mismatches;  // at most BitComparator::kKeep
  double seconds = 0;
  // The part of `mismatched` in groups the tier file lists as known mismatches (last, so that
  // positional initialisers of the fields above stay valid).
  size_t known_mismatched = 0;
  // Where the unit stands in the whole run's order (every selected suite of every tier file, before
  // sharding), so that merged shards come back in the order one machine would have run them.
  size_t position = 0;
  // Why the suite fails besides mismatched outputs ("required backend 'tiled' did not run"), each also
  // in `reason`. Known mismatches never clear these.
  std::vector<std::string> failures = {};
  // Profiles ("sm90") whose recorded hardware bits this suite reproduced in this run, every output
  // equal (T2's replays). A profile no run pins rests on models alone: reports and sign-offs say so.
  std::vector<std::string> pinned_profiles = {};
  // Per backend, what it ran and declined (suites that run backends; empty for the others).
  std::map<std::string, BackendCoverage> coverage = {};
  // The seed the suite's random inputs came from, when it draws any.
  std::optional<uint64_t> seed = {};
};

// One part of a run split across machines (`--shard I/N`): 1 <= index <= count. count 1: not sharded.
struct ShardInfo {
  unsigned index = 1;
  unsigned count = 1;
  bool sharded() const { return count > 1; }
};

// Profile -> the suites ("T2.km-external") that pinned it, over the run's suites; and the profiles
// of the reference that none pinned.
std::map<std::string, std::vector<std::string>> pinned_profiles(const std::vector<SuiteResult>& suites);
std::vector<std::string> unpinned_profiles(const std::vector<SuiteResult>& suites);

// Where a run stands when its reports are written: they are rewritten after every finished unit, so
// a reader (or `mmaemu run --resume`) can tell a whole run from one still going or stopped by a signal.
enum class RunState { complete, running, interrupted };
const char* run_state_name(RunState s);  // "complete", "running", "interrupted"

struct RunReport {
  std::string tool_version;
  std::string commit;
  std::string started_utc;
  std::string host;
  std::map<std::string, std::string> environment;  // compiler, CUDA, GPU, driver, ...
  std::vector<std::string> tier_files;
  std::vector<SuiteResult> suites;
  ShardInfo shard;
  RunState state = RunState::complete;
  size_t planned = 0;  // the units this run (this shard) selected; suites.size() once complete
  // The run's inputs (tier files' bytes, selection, options, program version and commit) as one
  // digest: `--resume` keeps the suites of a report only when it is the same.
  std::string inputs_sha256 = {};
};

}  // namespace mmaemu
