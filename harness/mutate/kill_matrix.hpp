// The result of a mutation campaign: for every mutant, what each test did to it (the kill matrix),
// the mutant's outcome, and the mutation score. Written as JSON (read back for --baseline and the
// journal) and Markdown.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "harness/core/result.hpp"
#include "harness/mutate/catalogue.hpp"

namespace mmaemu::mutate {

// What one test did with one mutant active.
enum class TestOutcome {
  passed,    // exit 0: the mutant went unnoticed
  failed,    // a non-zero exit: killed
  timeout,   // over its time limit, its process group killed: killed
  crash,     // ended by a signal (SIGSEGV, SIGABRT, ...): killed
  not_run,   // --fast: an earlier test had killed the mutant
  error,     // could not be started (the harness's fault, never the mutant's)
};

struct TestCell {
  std::string test;
  TestOutcome outcome = TestOutcome::not_run;
  int exit_code = 0;    // failed
  std::string signal;   // crash: "SIGSEGV"
  double seconds = 0;
  std::string log;      // relative to the report directory
  std::string error;    // error: why
  double first_timeout_seconds = 0;  // >0: a first run passed this limit; the outcome is the re-run's
  bool kills() const { return outcome == TestOutcome::failed || outcome == TestOutcome::timeout || outcome == TestOutcome::crash; }
};

// A mutant's outcome, judged against what the catalogue expects of it.
enum class Outcome {
  killed,              // expected killed; some test failed
  timeout,             // expected killed; a test hung (and none crashed)
  crash,               // expected killed; a test crashed
  survived,            // expected killed; every test passed: a gap in the tests
  equivalent,          // expected equivalent; every test passed
  equivalent_killed,   // expected equivalent, yet killed: it was not equivalent
  identity_survived,   // an identity control, unnoticed as it must be
  identity_killed,     // an identity control killed: the machinery kills by itself
  error,               // a test could not be started
};

const char* to_string(TestOutcome o);
const char* to_string(Outcome o);
std::optional<Outcome> outcome_from_string(const std::string& s);

// True for the outcomes that fail the campaign (exit 1).
bool is_problem(Outcome o);
// True for killed, timeout and crash.
bool counts_as_killed(Outcome o);

struct MutantResult {
  Mutant mutant;
  Outcome outcome = Outcome::survived;
  std::vector<TestCell> cells;          // in the tier file's test order
  std::vector<std::string> killed_by;   // the tests that killed it, in test order
  double seconds = 0;
};

// Judges a mutant from its cells: crash over timeout over failed, then the catalogue's expectation.
MutantResult judge(const Mutant& mutant, std::vector<TestCell> cells);

struct TestInfo {
  std::string name;
  std::vector<std::string> command;  // as written in the tier file
  double baseline_seconds = 0;
  double timeout_seconds = 0;
};

struct Score {
  size_t killed = 0;       // killed + timeout + crash
  size_t scored = 0;       // mutants expected killed (equivalent and identity excluded)
  double value() const { return scored ? static_cast<double>(killed) / static_cast<double>(scored) : 1.0; }
};

struct KillMatrix {
  std::string tier;
  std::string catalogue;          // as the tier file names it
  std::string commit;
  std::string started;
  std::vector<TestInfo> tests;
  std::vector<MutantResult> mutants;  // sorted by id
  size_t planned = 0;                 // mutants selected for the run (mutants.size() when complete)
  std::string baseline_file;          // --baseline, as given ("" without)
  std::vector<std::string> baseline_changes;  // one line per change against it
  ShardInfo shard;                    // --shard I/N: this matrix holds the mutants of shard I only

  Score score() const;
  size_t count(Outcome o) const;
  const MutantResult* find(int id) const;
};

// JSON. Throws InputError naming `source` when text is not a kill matrix.
std::string to_json(const KillMatrix& m);
KillMatrix kill_matrix_from_json(const std::string& text, const std::string& source);
// One mutant's result as a single JSON line (the journal's unit), and back.
std::string to_json_line(const MutantResult& r);
MutantResult mutant_result_from_json(const std::string& text, const std::string& source);

std::string to_markdown(const KillMatrix& m);

// "42/44 = 95.5%".
std::string score_text(const Score& s);

}  // namespace mmaemu::mutate
