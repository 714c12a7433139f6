// The sign-off's status record: one entry per check and per step, with its command, start, end,
// exit status, seconds and verdict. Written atomically after every entry (signoff.json), so an
// interrupted sign-off keeps what finished and `--resume` continues where it stopped; read back for
// resuming, merging shards and comparing with an earlier sign-off.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/result.hpp"

namespace mmaemu::signoff {

inline constexpr const char* kSignoffSchema = "mmaemu-signoff/1";

// pass; fail; skip (allowed, or a step that is not required); refused (a premise failed); error (the
// step could not be judged: it crashed, timed out, wrote no report); interrupted; not_run (the
// sign-off stopped before it, or it belongs to another shard).
enum class StepVerdict { pass, fail, skip, refused, error, interrupted, not_run };
const char* verdict_name(StepVerdict v);
StepVerdict step_verdict_from_name(const std::string& name, const std::string& source);
bool finished(StepVerdict v);  // pass, fail, skip: a resumed sign-off keeps it (a refusal is asked again)

struct StepRecord {
  std::string name;
  std::string kind;                  // "check" (preflight, device-code, data, comparison) or "tier"
  size_t position = 0;               // tier steps: the index among the plan's tier steps (sharding)
  bool required = true;
  std::vector<std::string> command;  // as run, for tier steps
  std::string start_utc, end_utc;
  int exit_status = 0;
  double seconds = 0;
  StepVerdict verdict = StepVerdict::not_run;
  std::string reason;
  std::vector<std::string> reports;  // relative to the sign-off directory
  // What the step's report counted: suites (or mutants) by verdict, outputs compared and mismatched.
  size_t units_pass = 0, units_fail = 0, units_skip = 0, units_error = 0;
  size_t compared = 0, mismatched = 0;
};

struct SignoffRecord {
  std::string plan;                  // its name
  std::string plan_file;
  std::string plan_sha256;
  std::string tool_version;
  std::string commit;
  std::string started_utc, finished_utc;
  ShardInfo shard;
  std::string previous;              // --compare DIR, as given ("" without)
  StepVerdict verdict = StepVerdict::not_run;  // pass or fail once complete
  bool complete = false;
  std::vector<StepRecord> steps;
};

std::string to_json(const SignoffRecord& r);
// Throws InputError naming `source` for a document that is not a sign-off record of this schema.
SignoffRecord signoff_record_from_json(const std::string& text, const std::string& source);

// Reads <dir>/signoff.json. Throws InputError naming the directory or file when it is absent or of
// another schema.
SignoffRecord read_signoff_record(const std::filesystem::path& dir);

// pass when every entry passed or was allowed to skip; fail otherwise (not_run counts as fail).
StepVerdict overall_verdict(const std::vector<StepRecord>& steps);

}  // namespace mmaemu::signoff
