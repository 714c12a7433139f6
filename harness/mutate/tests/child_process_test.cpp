#include "child_process.hpp"

#include <signal.h>

#include <chrono>

#include "test_util.hpp"

namespace mmaemu::mutate {
namespace {

using testing::read_text;
using testing::TempDir;

ChildResult run_sh(const TempDir& dir, const std::string& script, int mutant = 0, double timeout = 0) {
  const std::atomic<bool> stop{false};
  ChildRequest r;
  r.argv = {"sh", "-c", script};
  r.workdir = dir.path();
  r.log = dir / "log.txt";
  r.mutant = mutant;
  r.timeout_seconds = timeout;
  return run_child(r, stop);
}

TEST(ChildProcess, ReportsTheExitCodeAndCapturesOutput) {
  TempDir dir;
  const ChildResult r = run_sh(dir, "echo out; echo err >&2; pwd; exit 3");
  EXPECT_EQ(r.end, ChildResult::End::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(read_text(dir / "log.txt"), "out\nerr\n" + dir.path().string() + "\n");
}

TEST(ChildProcess, SetsOrUnsetsTheMutantSwitch) {
  TempDir dir;
  ::setenv("MMAEMU_MUTANT", "99", 1);  // inherited from a parent: must not leak into the baseline
  EXPECT_EQ(run_sh(dir, "test -z \"$MMAEMU_MUTANT\"").exit_code, 0);
  EXPECT_EQ(run_sh(dir, "test \"$MMAEMU_MUTANT\" = 7", 7).exit_code, 0);
  ::unsetenv("MMAEMU_MUTANT");
}

TEST(ChildProcess, ACrashIsASignal) {
  TempDir dir;
  const ChildResult r = run_sh(dir, "kill -SEGV $$");
  EXPECT_EQ(r.end, ChildResult::End::signalled);
  EXPECT_EQ(signal_name(r.signal), "SIGSEGV");
}

TEST(ChildProcess, ATimeoutKillsTheWholeGroup) {
  TempDir dir;
  // The grandchild holds the log open; killing only the shell would leave it running.
  const auto t0 = std::chrono::steady_clock::now();
  const ChildResult r = run_sh(dir, "sleep 30 & while :; do :; done", 0, 0.5);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.end, ChildResult::End::timed_out);
  EXPECT_LT(took, 5.0);
}

TEST(ChildProcess, AMissingProgramIsNotStarted) {
  TempDir dir;
  const std::atomic<bool> stop{false};
  ChildRequest req;
  req.argv = {"./no-such-program"};
  req.workdir = dir.path();
  req.log = dir / "log.txt";
  const ChildResult r = run_child(req, stop);
  EXPECT_EQ(r.end, ChildResult::End::not_started);
  EXPECT_NE(r.error.find("no-such-program"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu::mutate
