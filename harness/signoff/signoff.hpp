// `mmaemu signoff PLAN.yaml --out DIR`: decides whether this build may be released and leaves the
// evidence in DIR: the preflight of the machine, the frozen device code, the shipped data, every
// tier step of the plan in order (each in a child process), and the comparison with an earlier
// sign-off, all under one status record (signoff.json) rewritten atomically after every entry, with
// its Markdown and JUnit renderings. An interrupted sign-off keeps what finished; `--resume`
// continues where it stopped.
#pragma once
#include <filesystem>
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu::signoff {

struct SignoffOptions {
  std::filesystem::path plan;
  std::filesystem::path out;             // the sign-off directory
  std::filesystem::path previous;        // an earlier sign-off's directory to compare with; empty: none
  bool resume = false;                   // keep the finished steps of an interrupted sign-off in `out`
  bool update_records = false;           // rewrite the device-code record and the data manifest, then stop
  bool quiet = false;
  ShardInfo shard;                       // only this shard's tier steps (core/shard.hpp)
  std::string mmaemu;                    // this program, which runs the steps
  std::filesystem::path build_dir;       // the build this program belongs to (device code is listed there)
  std::string prebuilt_variants;         // passed to every step (mutation tiers' variants built elsewhere)
};

// Exit status: 0 the build may be released; 1 it may not (a check or a step failed, a required step
// skipped or was refused, the preflight failed, the comparison found differences); 2 unusable input
// (a bad plan, a previous sign-off of another schema or a missing directory, an `out` that holds
// another sign-off without --resume, an `out` locked by another sign-off or that cannot be written);
// interrupted by SIGINT / SIGTERM, interrupted_exit_status() (core/interrupt_guard.hpp): the finished
// steps are in `out`, and --resume keeps them.
int run_signoff(const SignoffOptions& options);

}  // namespace mmaemu::signoff
